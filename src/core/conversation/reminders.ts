// What rides along with every model request (DESIGN.md §4): plan mode's standing
// reminder, and the todo list while any item is open, so compaction cannot lose either.
import type { Mode } from '../tools/contract';
import type { TodoStore } from '../todos/todoStore';
import { PLAN_REMINDER, STAYING_PLAN_REMINDER } from './planMode';

const OPEN = new Set(['pending', 'in_progress']);

/** `canExit`: the agent has exitplanmode (a planner, an explorer or a child started in plan mode does not). */
export async function remindersFor(mode: Mode, todos: TodoStore | undefined, canExit = true): Promise<string[]> {
  const reminders = mode === 'plan' ? [canExit ? PLAN_REMINDER : STAYING_PLAN_REMINDER] : [];
  let list: Awaited<ReturnType<TodoStore['list']>>['todos'] = [];
  try {
    list = (await todos?.list())?.todos ?? [];
  } catch {
    // An unreadable list is reported by todoread; a model request goes on without it.
  }
  if (list.some((t) => OPEN.has(t.status))) {
    const lines = list.map((t) => `- ${t.id} [${t.status}] (${t.priority}) ${t.title}${t.dependsOn.length > 0 ? ` — after ${t.dependsOn.join(', ')}` : ''}`);
    reminders.push(`<todos>\nThe current todo list (.peon/todos.json; the user may edit it too). Keep it up to date with todowrite.\n${lines.join('\n')}\n</todos>`);
  }
  return reminders;
}
