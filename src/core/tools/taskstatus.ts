// taskstatus (DESIGN.md §4): where each subagent of the conversation stands.
import * as z from 'zod';
import { defineTool } from './defineTool';
import description from './taskstatus.md';
import { ToolError } from './toolError';

const input = z.object({
  agent_names: z.array(z.string().min(1).max(100)).max(200).optional().describe('Only these subagents (default: all).'),
});

export const taskstatusTool = defineTool({
  name: 'taskstatus',
  description,
  input,
  risk: 'read_only',
  async assess(args) {
    return { risk: 'read_only', writes: false, paths: [], summary: { kind: 'generic', text: `Status of ${args.agent_names?.join(', ') || 'every subagent'}` } };
  },
  async execute(args, ctx) {
    if (!ctx.subagents) throw new ToolError('unavailable', 'There are no subagents here.');
    return ctx.subagents.status(args.agent_names);
  },
});
