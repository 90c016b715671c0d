// task (DESIGN.md §4): a subagent of a given type on a prompt, foreground or background;
// the same name resumes a finished one. What the child may do is its type's table and
// the same gate; the bounds and the bookkeeping are the conversation's (subagents.ts).
import * as z from 'zod';
import { AGENT_NAME, AGENT_TYPE_NAMES } from '../../shared/messages';
import { defineTool } from './defineTool';
import description from './task.md';
import { ToolError } from './toolError';

const input = z.object({
  name: z.string().regex(AGENT_NAME, 'a letter, then letters, digits, _ or - (40 at most)').describe('What to call the subagent (the user sees it); the name of a finished one resumes it.'),
  subagent_type: z.enum(AGENT_TYPE_NAMES).describe('explorer, planner, developer or orchestrator.'),
  prompt: z.string().trim().min(1).max(100_000).describe('Everything the subagent needs to know: it does not see this conversation.'),
  task_id: z.array(z.string().min(1).max(100)).max(50).optional().describe('Todo ids that move to completed when this task completes.'),
  background: z.boolean().optional().describe('Return at once; the report joins your next request when it ends.'),
});

const READS_ONLY = new Set(['explorer', 'planner']);

export const taskTool = defineTool({
  name: 'task',
  description,
  input,
  // Starting one changes nothing by itself: each call the child makes passes the gate.
  risk: 'read_only',
  untimed: true, // bounded by the subagent's own time budget, and by Stop
  async assess(args) {
    return {
      risk: READS_ONLY.has(args.subagent_type) ? 'read_only' : 'process',
      writes: false,
      paths: [],
      summary: { kind: 'generic', text: `Start ${args.subagent_type} ${args.name}${args.background ? ' in the background' : ''}: ${args.prompt.length > 300 ? `${args.prompt.slice(0, 299)}…` : args.prompt}` },
    };
  },
  async execute(args, ctx) {
    if (!ctx.subagents) throw new ToolError('unavailable', 'Subagents cannot start here.');
    return ctx.subagents.task({ name: args.name, type: args.subagent_type, prompt: args.prompt, todoIds: args.task_id ?? [], background: args.background ?? false }, ctx.signal);
  },
});
