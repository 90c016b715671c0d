// The workspace's todo list, `.peon/todos.json` (DESIGN.md §4, todoread/todowrite).
// Every change is a read-modify-write under a lock file shared by processes (and a queue
// within this one), written atomically; a file that does not parse is kept aside by the
// next write (renamed, never emptied), and only reported by a read.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { TodoItem, type TODO_PRIORITIES, type TODO_STATUSES } from '../../shared/messages';
import { ToolError } from '../tools/toolError';
import { atomicWrite } from '../workspace/atomicWrite';
import { withLockFile } from './lockFile';
import { checkTodoPlace, readTodoFile } from './todoFile';
import { invalid, nextNumber, validate } from './todoRules';

export type Todo = TodoItem & { createdAt: string; updatedAt: string };
export type TodoStatus = (typeof TODO_STATUSES)[number];
export type TodoPriority = (typeof TODO_PRIORITIES)[number];
export interface TodoFilter { status?: TodoStatus; priority?: TodoPriority }
export interface TodoChange { id?: string; title?: string; description?: string; status?: TodoStatus; priority?: TodoPriority; dependsOn?: string[]; action?: 'delete' }
export interface TodoListResult { todos: Todo[]; setAside?: string; /** The file does not parse; it was left as it is. */ unreadable?: true }
export interface TodoWriteResult { todo?: Todo; deleted?: Todo; created: boolean; todos: Todo[]; setAside?: string }

const CUSTOM_ID = /^[A-Za-z0-9_.-]{1,100}$/;
const Stored = TodoItem.extend({ createdAt: z.string().max(100).optional(), updatedAt: z.string().max(100).optional() });
const StoredFile = z.object({ version: z.number().optional(), next: z.unknown().optional(), todos: z.array(Stored) });

interface Loaded { todos: Todo[]; next: number; corrupt?: boolean }

const unknownId = (id: string): ToolError => invalid(`There is no todo with id ${id}; call todoread to see the ids.`);
const stamp = (d: Date): string => d.toISOString().replace(/[-:]/g, '').slice(0, 15);

export class TodoStore {
  readonly file: string;
  private readonly lock: string;
  private readonly listeners = new Set<(todos: readonly Todo[]) => void>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly workspaceRoot: string) {
    this.file = path.join(workspaceRoot, '.peon', 'todos.json');
    this.lock = `${this.file}.lock`;
  }

  /** Reads only: a file that does not parse is reported and left as it is (the next write keeps it aside). */
  async list(filter: TodoFilter = {}): Promise<TodoListResult> {
    const loaded = await this.guard(() => this.load());
    const todos = loaded.todos.filter((t) => (!filter.status || t.status === filter.status) && (!filter.priority || t.priority === filter.priority));
    return { todos, ...(loaded.corrupt ? { unreadable: true } : {}) };
  }

  /** The todo with this id, read without changing anything (an unreadable file has none). */
  async get(id: string): Promise<Todo | undefined> {
    return (await this.guard(() => this.load())).todos.find((t) => t.id === id);
  }

  async write(change: TodoChange): Promise<TodoWriteResult> {
    const fields = validate(change);
    return this.locked(async () => {
      const loaded = await this.load();
      const now = new Date().toISOString();
      let todos = loaded.todos;
      let result: Omit<TodoWriteResult, 'todos'>;
      const index = change.id === undefined ? -1 : todos.findIndex((t) => t.id === change.id);
      const noSelf = (id: string): void => { if (fields.dependsOn?.includes(id)) throw invalid(`${id} cannot depend on itself; remove it from dependsOn.`); };
      if (change.action === 'delete') {
        if (index < 0) throw unknownId(change.id!);
        result = { deleted: todos[index]!, created: false };
        todos = todos.filter((_, i) => i !== index);
      } else if (index >= 0) {
        if (Object.keys(fields).length === 0) throw invalid(`Nothing to change in ${change.id}: give title, description, status, priority or dependsOn.`);
        noSelf(change.id!);
        const { description, ...rest } = fields;
        const { description: old, ...before } = todos[index]!;
        const kept = description === undefined ? old : description === '' ? undefined : description;
        const todo: Todo = { ...before, ...rest, ...(kept === undefined ? {} : { description: kept }), updatedAt: now };
        todos = todos.map((t, i) => (i === index ? todo : t));
        result = { todo, created: false };
      } else {
        if (change.id !== undefined && fields.title === undefined) throw invalid(`There is no todo with id ${change.id}; todoread lists them. To create one with this id, give a title too; leave id out to get the next todo-N.`);
        if (change.id !== undefined && !CUSTOM_ID.test(change.id)) throw invalid(`A new todo's id may use only letters, digits, "_", "." and "-" (at most 100); leave id out to get the next todo-N.`);
        const id = change.id ?? `todo-${loaded.next}`;
        noSelf(id);
        const { description, ...rest } = fields;
        const todo: Todo = { id, title: '', status: 'pending', priority: 'medium', dependsOn: [], ...rest, ...(description ? { description } : {}), createdAt: now, updatedAt: now };
        todos = [...todos, todo];
        result = { todo, created: true };
      }
      const setAside = loaded.corrupt ? await this.setAside() : undefined;
      const next = nextNumber(loaded.next, todos);
      await atomicWrite(this.file, Buffer.from(`${JSON.stringify({ version: 1, next, todos }, null, 2)}\n`));
      this.notify(todos);
      return { ...result, todos, ...(setAside ? { setAside } : {}) };
    });
  }

  /** Called after every successful write through this store, and by refresh(); returns the unsubscribe. */
  onChange(listener: (todos: readonly Todo[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-reads the file (another process may have changed it) and tells the listeners. */
  async refresh(): Promise<TodoListResult> {
    const result = await this.list();
    this.notify(result.todos);
    return result;
  }

  private notify(todos: readonly Todo[]): void {
    for (const listener of this.listeners) {
      try {
        listener(todos);
      } catch {
        // a listener's failure is not the write's
      }
    }
  }

  /** Serialized within this process, locked across processes; fs errors become io_error. */
  private locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.guard(async () => {
      await this.checkPlace();
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await this.checkPlace(); // a .peon made between the check and mkdir by someone else
      return withLockFile(this.lock, fn, { display: '.peon/todos.json.lock' });
    }));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError('io_error', `Could not read or write .peon/todos.json: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** A .peon that is a link, or a todo or lock file that is not a regular file, is refused (a cloned repository may plant either). */
  private checkPlace(): Promise<void> {
    return checkTodoPlace(path.dirname(this.file), [path.basename(this.file), path.basename(this.lock)]);
  }

  private async load(): Promise<Loaded> {
    await this.checkPlace();
    const bytes = await readTodoFile(this.file);
    if (bytes === undefined) return { todos: [], next: 1 };
    let parsed: z.infer<typeof StoredFile> | undefined;
    try {
      parsed = StoredFile.parse(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)));
    } catch {
      parsed = undefined;
    }
    if (!parsed || new Set(parsed.todos.map((t) => t.id)).size !== parsed.todos.length) return { todos: [], next: 1, corrupt: true };
    if ((parsed.version ?? 1) > 1) throw new ToolError('unavailable', `.peon/todos.json was written by a newer Peon (version ${parsed.version}); update Peon to change it.`);
    const mtime = parsed.todos.some((t) => !t.createdAt || !t.updatedAt) ? (await fs.lstat(this.file)).mtime.toISOString() : '';
    const todos = parsed.todos.map((t) => ({ ...t, createdAt: t.createdAt ?? mtime, updatedAt: t.updatedAt ?? mtime }));
    return { todos, next: nextNumber(parsed.next, todos) };
  }

  /** Renames the unreadable file aside (caller holds the lock); returns its workspace-relative name. */
  private async setAside(): Promise<string> {
    for (;;) {
      const name = `todos.corrupt-${stamp(new Date())}-${randomBytes(2).toString('hex')}.json`;
      const target = path.join(path.dirname(this.file), name);
      if (await fs.lstat(target).then(() => true, () => false)) continue;
      await this.checkPlace(); // what is renamed is the regular file that was read, in the real .peon
      await fs.rename(this.file, target);
      return `.peon/${name}`;
    }
  }
}
