// mem-read (DESIGN.md §4): one memory entry whole, by id; a path or an unknown id is a typed error.
import * as z from 'zod';
import { defineTool } from './defineTool';
import description from './mem-read.md';
import { ToolError } from './toolError';

const input = z.object({
  id: z.string().min(1).max(200).describe('The entry\'s id, as mem-search lists it (obs-9f3a1b, sum-2c4d5e, cur-agents-md).'),
});

export const memReadTool = defineTool({
  name: 'mem-read',
  description,
  input,
  risk: 'read_only',
  async assess(args) {
    return { risk: 'read_only', writes: false, paths: [], summary: { kind: 'generic', text: `Read memory entry ${args.id.slice(0, 200)}` } };
  },
  async execute(args, ctx) {
    if (!ctx.memory) throw new ToolError('unavailable', 'Memory is off (peon.memory.enabled).');
    return ctx.memory.read(args.id);
  },
});
