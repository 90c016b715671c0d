// mem-search (DESIGN.md §4): BM25 over the workspace's memory, filtered by the relevance gate, as XML.
import * as z from 'zod';
import { defineTool } from './defineTool';
import description from './mem-search.md';
import { ToolError } from './toolError';

const input = z.object({
  query: z.string().trim().min(1).max(2000).describe('Keywords, a file path, an error message or a question.'),
  limit: z.number().int().min(1).max(10).optional().describe('Results at most, 1–10 (default from settings).'),
});

export const memSearchTool = defineTool({
  name: 'mem-search',
  description,
  input,
  risk: 'read_only',
  async assess(args) {
    return { risk: 'read_only', writes: false, paths: [], summary: { kind: 'generic', text: `Search memory for "${args.query.slice(0, 200)}"` } };
  },
  async execute(args, ctx) {
    if (!ctx.memory) throw new ToolError('unavailable', 'Memory is off (peon.memory.enabled).');
    return ctx.memory.search(args.query, args.limit, ctx.signal);
  },
});
