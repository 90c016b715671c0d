// enterplanmode (DESIGN.md §4): after the person approves (it asks by default), the
// conversation is in plan mode until a plan is approved. The runtime enforces it.
import * as z from 'zod';
import description from './enterplanmode.md';
import { defineTool } from './defineTool';
import { ToolError } from './toolError';

const input = z.object({ reason: z.string().max(2000).optional().describe('Why plan first, in a sentence, for the user.') });

export const enterPlanModeTool = defineTool({
  name: 'enterplanmode',
  description,
  input,
  risk: 'read_only',
  async assess(args) {
    const why = args.reason ? ` ${args.reason}` : '';
    return { risk: 'read_only', writes: false, paths: [], summary: { kind: 'generic', text: `Enter plan mode: Peon only reads and plans (it writes only under .peon/plans/) until you approve a plan.${why}` } };
  },
  async execute(_args, ctx) {
    if (!ctx.mode) throw new ToolError('unavailable', 'This conversation has no plan mode.');
    const already = ctx.mode.current === 'plan';
    ctx.mode.enterPlan();
    return {
      output: already
        ? 'Plan mode was already on; it stays on.'
        : 'Plan mode is on. Research and plan only; write the plan under .peon/plans/ and call exitplanmode when it is ready.',
      data: { mode: 'plan' },
    };
  },
});
