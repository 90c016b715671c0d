// The agent types as data (DESIGN.md §4, the Pegg seed's "Tool availability per agent"):
// each type's tool table and the mode it starts in. The orchestrator (the main agent, and
// a child that may itself delegate) has every tool; a planner plans (it starts, and
// stays, in plan mode: its file tools write only under .peon/plans/); a developer builds;
// an explorer only looks (read-only commands, no file changes). The registry built for
// an agent holds exactly its table: a tool outside it does not exist for that agent. In
// a restricted (untrusted) workspace only the read-only tools exist, whatever the type.
import { BUILTIN_TOOLS } from '../tools/builtins';
import type { AnyTool } from '../tools/contract';
import { ToolRegistry } from '../tools/registry';
import type { Mode } from '../tools/contract';

import { AGENT_TYPE_NAMES, type AgentTypeName } from '../../shared/messages';

export const AGENT_TYPES = AGENT_TYPE_NAMES;
export type AgentType = AgentTypeName;

const FILE_TOOLS = ['read', 'write', 'edit', 'delete', 'list', 'glob', 'grep'];
const WORK_TOOLS = [...FILE_TOOLS, 'bash', 'webfetch', 'websearch', 'todoread', 'todowrite', 'mem-search', 'mem-read'];

interface AgentTypeSpec {
  /** The tool names it may call; `all`: every tool there is (delegated agents and MCP tools included). */
  readonly tools: readonly string[] | 'all';
  /** The mode it starts in; a type without exitplanmode stays in it. */
  readonly mode: Mode;
}

export const AGENT_SPECS: Readonly<Record<AgentType, AgentTypeSpec>> = {
  orchestrator: { tools: 'all', mode: 'normal' },
  planner: { tools: WORK_TOOLS, mode: 'plan' },
  developer: { tools: WORK_TOOLS, mode: 'normal' },
  explorer: { tools: ['glob', 'grep', 'list', 'read', 'bash', 'webfetch', 'websearch'], mode: 'plan' },
};

export function startingMode(type: AgentType): Mode {
  return AGENT_SPECS[type].mode;
}

export interface RegistryOptions {
  readonly trusted: boolean;
  /** Tools from elsewhere (MCP), subject to the same table. */
  readonly extra?: readonly AnyTool[];
  /**
   * A child started in its parent's plan mode stays in it: plan mode is the person's to
   * end, on the main agent's plan, so the child gets neither plan-mode tool.
   */
  readonly planInherited?: boolean;
  /** peon.memory.enabled: the memory tools exist only while it is on (default on). */
  readonly memory?: boolean;
}

const MEMORY_TOOLS = new Set(['mem-search', 'mem-read']);

const PLAN_MODE_TOOLS = new Set(['enterplanmode', 'exitplanmode']);

/** The registry of one agent type: exactly its tools (only the read-only ones where the workspace is not trusted). */
export function registryFor(type: AgentType, options: RegistryOptions): ToolRegistry {
  const allowed = AGENT_SPECS[type].tools;
  const registry = new ToolRegistry();
  for (const tool of [...BUILTIN_TOOLS, ...(options.extra ?? [])]) {
    if (allowed !== 'all' && !allowed.includes(tool.name)) continue;
    if (!options.trusted && tool.risk !== 'read_only') continue;
    if (options.planInherited && PLAN_MODE_TOOLS.has(tool.name)) continue;
    if (options.memory === false && MEMORY_TOOLS.has(tool.name)) continue;
    registry.register(tool);
  }
  return registry;
}
