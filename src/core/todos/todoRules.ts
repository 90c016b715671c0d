// The checks of a todo change that need no file, and the auto-id counter (todo-N).
import * as z from 'zod';
import { TODO_PRIORITIES, TODO_STATUSES, TodoItem } from '../../shared/messages';
import { ToolError } from '../tools/toolError';
import type { Todo, TodoChange } from './todoStore';

const AUTO_ID = /^todo-(\d+)$/;
const Fields = TodoItem.omit({ id: true }).partial();
export type TodoFields = z.infer<typeof Fields>;

export const invalid = (message: string): ToolError => new ToolError('invalid_input', message);

/** The next auto number: never one already used by a todo-N id, never below the stored one. */
export function nextNumber(stored: unknown, todos: readonly Todo[]): number {
  const used = todos.map((t) => Number(AUTO_ID.exec(t.id)?.[1] ?? 0)).filter(Number.isSafeInteger);
  return Math.max(Number.isSafeInteger(stored) && (stored as number) > 0 ? (stored as number) : 1, 1 + Math.max(0, ...used));
}

/** Checks a change before the file is touched; returns the fields it sets. */
export function validate(change: TodoChange): TodoFields {
  if (change.action !== undefined && change.action !== 'delete') throw invalid(`action may only be "delete".`);
  if (change.action === 'delete' && change.id === undefined) throw invalid('To delete a todo, give its id; call todoread to see the ids.');
  if (change.id !== undefined && (typeof change.id !== 'string' || change.id === '')) throw invalid('id must be a non-empty string; call todoread to see the ids.');
  const given = Object.fromEntries(Object.entries({ title: change.title, description: change.description, status: change.status, priority: change.priority, dependsOn: change.dependsOn }).filter(([, v]) => v !== undefined));
  const parsed = Fields.safeParse(given);
  if (!parsed.success) throw invalid(`Invalid todo: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}. Statuses: ${TODO_STATUSES.join(', ')}; priorities: ${TODO_PRIORITIES.join(', ')}.`);
  const fields = parsed.data;
  if (fields.title !== undefined && fields.title.trim() === '') throw invalid('title must not be empty.');
  if (change.id === undefined && change.action === undefined && fields.title === undefined) throw invalid('A new todo needs a title (or give the id of an existing todo to update it; call todoread to see the ids).');
  if (fields.dependsOn) fields.dependsOn = [...new Set(fields.dependsOn)];
  return fields;
}
