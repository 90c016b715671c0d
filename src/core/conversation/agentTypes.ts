// The tools each agent type may call (the Pegg seed's table, over the tools that exist):
// the main agent has them all; a planner plans (it starts, and stays, in plan mode); a
// developer builds; an explorer only looks. In a restricted (untrusted) workspace only
// the read-only tools exist, whatever the type.
import { BUILTIN_TOOLS } from '../tools/builtins';
import type { AnyTool } from '../tools/contract';
import { ToolRegistry } from '../tools/registry';
import type { Mode } from '../tools/contract';

export const AGENT_TYPES = ['main', 'planner', 'developer', 'explorer'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

const FILE_TOOLS = ['read', 'write', 'edit', 'delete', 'list', 'glob', 'grep'];
const WORK_TOOLS = [...FILE_TOOLS, 'bash', 'todoread', 'todowrite', 'webfetch', 'websearch', 'mem-search', 'mem-read'];

interface AgentTypeSpec {
  /** The tool names it may call; `all`: every built-in. */
  readonly tools: readonly string[] | 'all';
  /** The mode it starts in; a type with no exitplanmode stays in it. */
  readonly mode: Mode;
}

const SPECS: Readonly<Record<AgentType, AgentTypeSpec>> = {
  main: { tools: 'all', mode: 'normal' },
  planner: { tools: WORK_TOOLS, mode: 'plan' },
  developer: { tools: WORK_TOOLS, mode: 'normal' },
  explorer: { tools: ['glob', 'grep', 'list', 'read', 'bash', 'webfetch', 'websearch'], mode: 'plan' },
};

export const isAgentType = (value: string): value is AgentType => (AGENT_TYPES as readonly string[]).includes(value);

export function startingMode(type: AgentType): Mode {
  return SPECS[type].mode;
}

/** The registry of one agent type: its tools, only the read-only ones where the workspace is not trusted. */
export function registryFor(type: AgentType, trusted: boolean, extra: readonly AnyTool[] = []): ToolRegistry {
  const allowed = SPECS[type].tools;
  const registry = new ToolRegistry();
  for (const tool of [...BUILTIN_TOOLS, ...extra]) {
    if (allowed !== 'all' && !allowed.includes(tool.name)) continue;
    if (!trusted && tool.risk !== 'read_only') continue;
    registry.register(tool);
  }
  return registry;
}
