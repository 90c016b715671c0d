// `/skill-name args` in a person's message does what loadskill does (DESIGN.md §4): the
// skill's block joins the message, or a `context: fork` skill starts its background
// subagent. The person typed it, so it is their choice, not the model's: it is not gated.
// A skill that cannot be read is said so in the message, never skipped silently.
import type { SubagentControl } from '../tools/contract';
import { applySkill } from '../tools/loadskill';
import { ToolError } from '../tools/toolError';
import type { SkillCatalog } from './skillCatalog';
import { hiddenIn, positionalValues, slashSkills } from './skillText';

/** One skill a message started: where it came from, what it hides, and the subagent it forked, or why it failed. */
export interface SkillUse {
  readonly name: string;
  readonly source: string;
  readonly sha256?: string;
  readonly hidden: readonly string[];
  readonly forked?: string;
  readonly error?: string;
}

export async function expandSlashSkills(message: string, catalog: SkillCatalog, ctx: { readonly subagents?: SubagentControl; readonly signal: AbortSignal }): Promise<{ text: string; uses: SkillUse[] }> {
  const uses: SkillUse[] = [];
  const parts = [message];
  for (const { name, args } of slashSkills(message, (n) => catalog.get(n) !== undefined)) {
    const skill = catalog.get(name)!;
    try {
      const content = catalog.read(name);
      const result = await applySkill(content, positionalValues(skill.arguments, args), args, ctx);
      const forked = typeof result.data?.forked === 'string' ? result.data.forked : undefined;
      parts.push(forked ? `[/${name}] ${result.output}` : result.output);
      uses.push({ name, source: skill.source, sha256: content.sha256, hidden: hiddenIn(content.text), ...(forked ? { forked } : {}) });
    } catch (error) {
      const why = error instanceof ToolError || error instanceof Error ? error.message : String(error);
      parts.push(`[/${name} could not be loaded: ${why}]`);
      uses.push({ name, source: skill.source, hidden: [], error: why });
    }
  }
  return { text: parts.join('\n\n'), uses };
}
