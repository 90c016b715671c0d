import * as z from 'zod';
import { TODO_PRIORITIES, TODO_STATUSES } from '../../shared/messages';
import { formatTodo, formatTodos } from '../todos/formatTodos';
import { defineTool } from './defineTool';
import { todoStore } from './todoread';
import description from './todowrite.md';

const input = z.object({
  id: z.string().min(1).max(100).optional().describe('The todo to update or delete. Leave it out to create one (todo-1, todo-2, …).'),
  title: z.string().max(500).optional().describe('What to do, in a line. Required to create.'),
  description: z.string().max(4000).optional().describe('Details; an empty string removes them.'),
  status: z.enum(TODO_STATUSES).optional().describe('Default for a new todo: pending.'),
  priority: z.enum(TODO_PRIORITIES).optional().describe('Default for a new todo: medium.'),
  dependsOn: z.array(z.string().min(1).max(100)).max(50).optional().describe('Ids of the todos this one waits for (shown, not enforced). Replaces the previous list.'),
  action: z.enum(['delete']).optional().describe('"delete" removes the todo `id`.'),
});

type Input = z.output<typeof input>;

const clip = (text: string): string => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/** The card's one line: what this call changes. */
function summarize(args: Input, exists: boolean): string {
  if (args.action === 'delete') return `Delete ${args.id ?? 'a todo (no id given)'}`;
  if (args.id === undefined || !exists) return `Add todo${args.id ? ` ${args.id}` : ''}: ${clip(args.title ?? '(no title)')}`;
  const changes = [
    args.title !== undefined ? `title → "${clip(args.title)}"` : '',
    args.status ? `status → ${args.status}` : '',
    args.priority ? `priority → ${args.priority}` : '',
    args.dependsOn ? `depends on → ${args.dependsOn.join(', ') || 'nothing'}` : '',
    args.description !== undefined ? (args.description === '' ? 'description removed' : 'description changed') : '',
  ].filter(Boolean);
  return `Update ${args.id}: ${changes.join(', ') || 'nothing'}`;
}

export const todowriteTool = defineTool({
  name: 'todowrite',
  description,
  input,
  // Conversation state, not a workspace file edit: nothing for the card to diff.
  risk: 'filesystem',
  async assess(args, ctx) {
    const exists = args.id !== undefined && (await todoStore(ctx).get(args.id)) !== undefined;
    return { risk: 'filesystem', writes: false, paths: [], summary: { kind: 'generic', text: summarize(args, exists) } };
  },
  async execute(args, ctx) {
    const result = await todoStore(ctx).write(args);
    const done = result.deleted
      ? `Deleted ${result.deleted.id} (${result.deleted.title}).`
      : `${result.created ? 'Added' : 'Updated'} ${formatTodo(result.todo!).split('\n')[0]}`;
    const list = formatTodos(result.todos, result.setAside);
    return { output: `${done}\n\nThe list now:\n${list}`, data: { ...result } };
  },
});
