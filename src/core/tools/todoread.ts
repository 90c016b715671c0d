import * as z from 'zod';
import { TODO_PRIORITIES, TODO_STATUSES } from '../../shared/messages';
import { formatTodos } from '../todos/formatTodos';
import type { TodoStore } from '../todos/todoStore';
import type { ToolContext } from './contract';
import { defineTool } from './defineTool';
import description from './todoread.md';
import { ToolError } from './toolError';

const input = z.object({
  status: z.enum(TODO_STATUSES).optional().describe('Only the todos with this status.'),
  priority: z.enum(TODO_PRIORITIES).optional().describe('Only the todos with this priority.'),
});

/** The conversation's todo list, or `unavailable` where there is none (todoread, todowrite). */
export function todoStore(ctx: ToolContext): TodoStore {
  if (!ctx.todos) throw new ToolError('unavailable', 'There is no todo list in this session; keep track of the steps in your answer instead.');
  return ctx.todos;
}

export const todoreadTool = defineTool({
  name: 'todoread',
  description,
  input,
  risk: 'read_only',
  assess: async () => ({ risk: 'read_only', writes: false, paths: [], summary: { kind: 'generic', text: 'Read the todo list' } }),
  async execute(args, ctx) {
    const filter = { ...(args.status ? { status: args.status } : {}), ...(args.priority ? { priority: args.priority } : {}) };
    const { todos, setAside, unreadable } = await todoStore(ctx).list(filter);
    let output = formatTodos(todos, setAside, unreadable);
    const filtered = Object.entries(filter).map(([k, v]) => `${k} ${v}`);
    if (todos.length === 0 && filtered.length > 0) output = output.replace(/No todos\.$/, `No todos with ${filtered.join(' and ')}.`);
    return { output, data: { todos, ...(setAside ? { setAside } : {}), ...(unreadable ? { unreadable } : {}) } };
  },
});
