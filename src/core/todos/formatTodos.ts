// The todo list as the model sees it (todoread, todowrite): one line per todo, its
// description indented below.
import type { Todo } from './todoStore';

export function formatTodo(todo: Todo): string {
  const depends = todo.dependsOn.length > 0 ? ` — depends on ${todo.dependsOn.join(', ')}` : '';
  const line = `${todo.id} [${todo.status}] (${todo.priority}) ${todo.title}${depends}`;
  if (!todo.description) return line;
  return `${line}\n${todo.description.split('\n').map((l) => `    ${l}`).join('\n')}`;
}

export const UNREADABLE = 'The todo file .peon/todos.json does not parse; it is left as it is, and the next todowrite keeps it aside (renamed, never emptied) and starts a new list.';

export function formatTodos(todos: readonly Todo[], setAside?: string, unreadable?: boolean): string {
  const lines: string[] = [];
  if (setAside) lines.push(`The todo file did not parse; it was kept aside as ${setAside} and the list starts empty.`);
  if (unreadable) lines.push(UNREADABLE);
  lines.push(todos.length === 0 ? 'No todos.' : todos.map(formatTodo).join('\n'));
  return lines.join('\n');
}
