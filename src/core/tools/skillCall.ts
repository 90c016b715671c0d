// What read_skill and loadskill share: a name (never a path) looked up in the session's
// catalog, the file read again under its root, and the card that shows where it came
// from, the SHA-256 of exactly what will be used, and what it hides.
import type { SkillContent } from '../skills/skillCatalog';
import { isSkillName } from '../skills/skillFile';
import { hiddenIn } from '../skills/skillText';
import type { Assessment, ToolContext } from './contract';
import { ToolError } from './toolError';

/** Subagent types that change nothing (as task.ts judges them). */
const READS_ONLY = new Set(['explorer', 'planner']);

/** The skill `name` as it is on disk now; a path, or a name outside the catalog, is refused. */
export function skillContent(ctx: ToolContext, name: string): SkillContent {
  if (/[\\/]|\.\./.test(name) || name.startsWith('~')) throw new ToolError('invalid_input', `${JSON.stringify(name)} is a path; give a skill's name (as listed), never a path.`);
  if (!isSkillName(name)) throw new ToolError('invalid_input', `${JSON.stringify(name)} is not a skill name: 1–64 lowercase letters, digits and single hyphens.`);
  if (!ctx.skills) throw new ToolError('unavailable', 'No skills were looked for in this session.');
  return ctx.skills.read(name);
}

/** The assessment of a call that uses `content`: read-only, its card from the file read, the content kept for execute. */
/** The values a call puts into a skill, as a card lists them (each bounded). */
const argumentLines = (values: Readonly<Record<string, string>>): string[] =>
  Object.entries(values)
    .slice(0, 50)
    .map(([k, v]) => `${k} = ${v.length > 1900 ? `${v.slice(0, 1899)}…` : v}`);

export function skillAssessment(content: SkillContent, fork?: string, values: Readonly<Record<string, string>> = {}): Assessment {
  const { skill } = content;
  const args = argumentLines(values);
  return {
    // A forked skill starts a subagent: the risk `task` gives that type, and `task`'s rules judge it too.
    risk: fork && !READS_ONLY.has(fork) ? 'process' : 'read_only',
    ...(fork ? { judgedAs: 'task' } : {}),
    writes: false,
    paths: [],
    summary: { kind: 'skill', name: skill.name, source: skill.source, sha256: content.sha256, hidden: hiddenIn(content.text), ...(fork ? { fork } : {}), ...(args.length ? { arguments: args } : {}) },
    prepared: content,
  };
}

/** The card's sentence: which skill, from where, which bytes, and a warning when it hides characters. */
export function skillHeadline(verb: string, content: SkillContent): string {
  const hidden = hiddenIn(content.text);
  return `${verb} skill ${content.skill.name} · ${content.skill.source} · sha256 ${content.sha256.slice(0, 12)}${hidden.length ? ` · ⚠ hides ${hidden.join(', ')}` : ''}`;
}

/** The facts the CLI's JSON, the panel and tests get. */
export function skillData(content: SkillContent): Record<string, unknown> {
  return { name: content.skill.name, source: content.skill.source, scope: content.skill.scope, sha256: content.sha256, bytes: content.bytes, truncated: content.truncated, hidden: hiddenIn(content.text) };
}
