// loadskill (the Pegg seed): a skill as a `<skill:name>` block with its placeholders
// filled, or — for `context: fork` — a background subagent (type from `agent:`, default
// developer) with the skill as its task. `/skill-name` in a message does the same
// (src/core/skills/slashCommand.ts).
import * as z from 'zod';
import type { SkillContent } from '../skills/skillCatalog';
import { fillPlaceholders, skillBlock } from '../skills/skillText';
import type { ToolContext, ToolResult } from './contract';
import { defineTool } from './defineTool';
import description from './loadskill.md';
import { skillAssessment, skillContent, skillData, skillHeadline } from './skillCall';
import { ToolError } from './toolError';

const input = z.object({
  name: z.string().min(1).max(200).describe('The skill\'s name, as listed (e.g. "release-checks").'),
  arguments: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a placeholder name: letters, digits and _'), z.union([z.string().max(20_000), z.number(), z.boolean()]))
    .optional()
    .describe('Values for the skill\'s $name placeholders.'),
});

/** The skill applied: its block (inline), or a background subagent started with it (fork). */
export async function applySkill(content: SkillContent, values: Readonly<Record<string, string>>, all: string | undefined, ctx: Pick<ToolContext, 'subagents' | 'signal'>): Promise<ToolResult> {
  const { skill } = content;
  const filled = fillPlaceholders(content.body, skill.arguments, values, all);
  const block = skillBlock(content, filled.text);
  const data = { ...skillData(content), ...(filled.missing.length ? { missing: filled.missing } : {}), ...(filled.unused.length ? { unused: filled.unused } : {}) };
  const missing = filled.missing.length ? `\nNo value was given for ${filled.missing.map((m) => `$${m}`).join(', ')}; it stays as written.` : '';
  if (skill.context !== 'fork') return { output: `${block}${missing}`, headline: skillHeadline('Loaded', content), data };
  if (!ctx.subagents) throw new ToolError('unavailable', `The skill ${skill.name} runs as a subagent (context: fork), and subagents cannot start here.`);
  const type = skill.agent ?? 'developer';
  const name = ctx.subagents.freeName(`skill-${skill.name}`);
  const prompt = `Carry out this skill, then report what you did.\n\n${block}`;
  const started = await ctx.subagents.task({ name, type, prompt, todoIds: [], background: true }, ctx.signal);
  return {
    output: `The skill ${skill.name} runs as subagent "${name}" (${type}) in the background (context: fork). ${started.output}${missing}`,
    headline: `${skillHeadline('Forked', content)} · subagent ${name}`,
    data: { ...data, forked: name, agentType: type },
  };
}

const asText = (values: Readonly<Record<string, string | number | boolean>> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, String(v)]));

export const loadskillTool = defineTool({
  name: 'loadskill',
  description,
  input,
  // Its text changes nothing; a forked skill's subagent passes the gate call by call.
  risk: 'read_only',
  async assess(args, ctx) {
    const content = skillContent(ctx, args.name);
    return skillAssessment(content, content.skill.context === 'fork' ? (content.skill.agent ?? 'developer') : undefined, asText(args.arguments));
  },
  async execute(args, ctx, assessment) {
    return applySkill(assessment.prepared as SkillContent, asText(args.arguments), undefined, ctx);
  },
});
