// One SKILL.md: its YAML front matter parsed by a real YAML parser and validated as the
// Agent Skills format defines it (name, description), plus Peon's `context`, `agent`
// and `arguments`. Other keys (license, compatibility, metadata, allowed-tools, the
// fields other agents add) are accepted and ignored, so a repository's skills load
// unchanged; nothing in them grants anything.
import { parse as parseYaml } from 'yaml';
import type { AgentTypeName } from '../../shared/messages';

/** The Agent Skills name: 1–64 lowercase letters, digits and single hyphens, none at either end. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SKILL_NAME = 64;
export const MAX_DESCRIPTION = 1024;
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Other agents' names for the same kinds of subagent (Claude Code's `Explore`, `Plan`, `general-purpose`). */
const AGENT_ALIASES: Readonly<Record<string, AgentTypeName>> = {
  orchestrator: 'orchestrator',
  planner: 'planner',
  plan: 'planner',
  developer: 'developer',
  'general-purpose': 'developer',
  explorer: 'explorer',
  explore: 'explorer',
};

export interface SkillMeta {
  readonly name: string;
  readonly description: string;
  /** `fork`: the skill runs as a background subagent instead of joining the conversation. */
  readonly context?: 'fork';
  /** The subagent type a forked skill runs as (default developer). */
  readonly agent?: AgentTypeName;
  /** The `$name` placeholders it declares (positional words of `/skill args` fill them in order). */
  readonly arguments: readonly string[];
}

export type ParsedSkill = { readonly ok: true; readonly meta: SkillMeta; readonly body: string } | { readonly ok: false; readonly reason: string };

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const fail = (reason: string): ParsedSkill => ({ ok: false, reason });

/** Whether `name` is a valid skill name (also what a read_skill or loadskill call may name). */
export const isSkillName = (name: string): boolean => name.length >= 1 && name.length <= MAX_SKILL_NAME && SKILL_NAME.test(name);

function argumentNames(raw: unknown): string[] | string {
  if (raw === undefined || raw === null) return [];
  const names = typeof raw === 'string' ? raw.split(/[\s,]+/).filter(Boolean) : Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.keys(raw) : undefined;
  if (!names) return '`arguments` must be a list of names';
  for (const name of names) if (typeof name !== 'string' || !ARGUMENT_NAME.test(name)) return `argument ${JSON.stringify(name)} is not a name of letters, digits and underscores`;
  return [...new Set(names as string[])];
}

/** Parses SKILL.md text found in the directory `dirName`. */
export function parseSkill(text: string, dirName: string): ParsedSkill {
  const match = FRONT_MATTER.exec(text);
  if (!match) return fail('SKILL.md does not start with YAML front matter between --- lines');
  let data: unknown;
  try {
    data = parseYaml(match[1]!, { schema: 'core', uniqueKeys: true, maxAliasCount: 20, prettyErrors: false });
  } catch (error) {
    return fail(`its front matter is not valid YAML: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('its front matter is not a mapping of keys to values');
  const fields = data as Record<string, unknown>;
  const { name, description } = fields;
  if (typeof name !== 'string' || name === '') return fail('its front matter has no `name`');
  if (!isSkillName(name)) return fail(`name ${JSON.stringify(name)} is not 1–${MAX_SKILL_NAME} lowercase letters, digits and single hyphens (none at either end)`);
  if (name !== dirName) return fail(`name "${name}" does not match its directory "${dirName}"`);
  if (typeof description !== 'string' || description.trim() === '') return fail('its front matter has no `description`');
  if (description.length > MAX_DESCRIPTION) return fail(`its description is ${description.length} characters, over ${MAX_DESCRIPTION}`);
  const context = fields.context;
  if (context !== undefined && context !== 'fork' && context !== 'inline') return fail(`context ${JSON.stringify(context)} is neither "fork" nor "inline"`);
  let agent: AgentTypeName | undefined;
  if (fields.agent !== undefined) {
    agent = typeof fields.agent === 'string' ? AGENT_ALIASES[fields.agent.toLowerCase()] : undefined;
    if (!agent) return fail(`agent ${JSON.stringify(fields.agent)} is not one of planner, developer, explorer, orchestrator`);
  }
  const args = argumentNames(fields.arguments);
  if (typeof args === 'string') return fail(args);
  const meta: SkillMeta = { name, description: description.trim(), arguments: args, ...(context === 'fork' ? { context } : {}), ...(agent ? { agent } : {}) };
  return { ok: true, meta, body: text.slice(match[0].length) };
}
