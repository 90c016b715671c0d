// exitplanmode (DESIGN.md §4): the plan on an approval card, as Markdown. Approving ends
// plan mode; approving "with the plan's grants" also allows what the plan declared
// (the pipeline adds them as session grants); "Keep planning" is a denial with a message.
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import type { ToolContext } from './contract';
import { defineTool } from './defineTool';
import description from './exitplanmode.md';
import { planCommandProblem, planGlobProblem, planGlobsProblem } from './planGrants';
import { ToolError } from './toolError';

const PLANS = '.peon/plans';
const MAX_PLAN_CHARS = 200_000;

const pattern = (problem: (p: string) => string | undefined) => z.string().trim().min(1).max(4096).superRefine((p, ctx) => {
  const why = problem(p);
  if (why) ctx.addIssue({ code: 'custom', message: why });
});
const input = z.object({
  plan: z.string().min(1).max(MAX_PLAN_CHARS).optional().describe('The plan as Markdown; omit it to show the newest file under .peon/plans/.'),
  allow: z
    .strictObject({
      files: z
        .array(pattern(planGlobProblem))
        .max(100)
        .superRefine((globs, ctx) => {
          const why = planGlobsProblem(globs);
          if (why) ctx.addIssue({ code: 'custom', message: why });
        })
        .optional().describe('Globs of the files the plan will write or edit (relative, with *, ** and ? only).'),
      commands: z.array(pattern(planCommandProblem)).max(100).optional().describe('Command patterns the plan will run (`npm test`, `npm run build *`).'),
    })
    .optional()
    .describe('What carrying out the plan will touch.'),
});

/** The newest file under .peon/plans/ (inside the workspace, not through a link out), as text. */
function newestPlan(ctx: ToolContext): { text: string; source: string } {
  const dir = ctx.workspace.resolve(PLANS);
  const entries = dir.inside ? (fs.readdirSync(dir.canonical, { withFileTypes: true, recursive: true }) as fs.Dirent[]) : [];
  const files = entries
    .filter((e) => e.isFile() || e.isSymbolicLink())
    .map((e) => ctx.workspace.resolve(path.relative(ctx.workspace.root.root, path.join(e.parentPath, e.name))))
    .filter((p) => p.inside && p.secretReasons.length === 0)
    .map((p) => ({ p, stat: fs.statSync(p.canonical, { throwIfNoEntry: false }) }))
    .filter((f) => f.stat?.isFile())
    .sort((a, b) => b.stat!.mtimeMs - a.stat!.mtimeMs);
  const newest = files[0];
  if (!newest) throw new ToolError('invalid_input', `There is no plan to show: give it as \`plan\`, or write it under ${PLANS}/ first.`);
  // At most what the card shows (a character is at most 4 bytes): a huge planted file is never read whole.
  const fd = fs.openSync(newest.p.canonical, 'r');
  let text: string;
  try {
    const bytes = Buffer.alloc(Math.min(newest.stat!.size, MAX_PLAN_CHARS * 4));
    text = bytes.subarray(0, fs.readSync(fd, bytes, 0, bytes.length, 0)).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
  return { text: text.length > MAX_PLAN_CHARS ? `${text.slice(0, MAX_PLAN_CHARS)}\n\n… [cut at ${MAX_PLAN_CHARS} characters]` : text, source: newest.p.display };
}

export const exitPlanModeTool = defineTool({
  name: 'exitplanmode',
  description,
  input,
  risk: 'read_only',
  async assess(args, ctx) {
    if (ctx.mode && ctx.mode.current !== 'plan') throw new ToolError('invalid_input', 'Plan mode is not on, so there is nothing to exit. Carry on with the task.');
    const { text, source } = args.plan !== undefined ? { text: args.plan, source: 'as given' } : newestPlan(ctx);
    const files = [...new Set(args.allow?.files ?? [])];
    const commands = [...new Set(args.allow?.commands ?? [])];
    return {
      risk: 'read_only',
      writes: false,
      paths: [],
      summary: { kind: 'plan', plan: text, source, files, commands },
      ...(files.length + commands.length > 0 ? { offers: { files, commands } } : {}),
    };
  },
  async execute(_args, ctx, assessment) {
    if (!ctx.mode) throw new ToolError('unavailable', 'This conversation has no plan mode.');
    ctx.mode.exitPlan();
    const offered = assessment.offers ? ` The user may also have allowed what it declared (${[...assessment.offers.files, ...assessment.offers.commands].join(', ')}); anything else asks as usual.` : '';
    return { output: `The user approved the plan; plan mode is off. Carry it out now.${offered}`, data: { mode: 'normal' } };
  },
});
