import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, test } from 'vitest';
import { withLockFile } from '../../../src/core/todos/lockFile';
import { TodoStore, type Todo, type TodoChange } from '../../../src/core/todos/todoStore';
import { ToolError } from '../../../src/core/tools/toolError';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function workspace(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'peon-todos-')));
  made.push(dir);
  return dir;
}

const bytes = (store: TodoStore): Buffer => fs.readFileSync(store.file);

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

/** The change fails with invalid_input and the file keeps every byte. */
async function rejectsUnchanged(store: TodoStore, change: TodoChange, message?: RegExp): Promise<void> {
  const before = bytes(store);
  const error = await rejection(store.write(change));
  expect(error.code).toBe('invalid_input');
  if (message) expect(error.message).toMatch(message);
  expect(bytes(store).equals(before)).toBe(true);
}

const exited = (child: ChildProcess): Promise<number | null> => new Promise((resolve) => child.once('exit', (code) => resolve(code)));

describe('TodoStore', () => {
  test('auto ids todo-1, todo-2 with defaults and timestamps; the file format', async () => {
    const root = workspace();
    const store = new TodoStore(root);
    expect(await store.list()).toEqual({ todos: [] });
    expect(fs.existsSync(path.join(root, '.peon'))).toBe(false); // list creates nothing
    const first = await store.write({ title: 'Write the parser' });
    expect(first.created).toBe(true);
    expect(first.todo).toMatchObject({ id: 'todo-1', title: 'Write the parser', status: 'pending', priority: 'medium', dependsOn: [] });
    expect(first.todo!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const second = await store.write({ title: 'Test it', priority: 'high', status: 'in_progress', description: 'unit tests' });
    expect(second.todo).toMatchObject({ id: 'todo-2', priority: 'high', status: 'in_progress', description: 'unit tests' });
    expect(store.file).toBe(path.join(root, '.peon', 'todos.json'));
    const file = JSON.parse(fs.readFileSync(store.file, 'utf8'));
    expect(file).toMatchObject({ version: 1, next: 3, todos: [{ id: 'todo-1' }, { id: 'todo-2' }] });
    expect(fs.existsSync(`${store.file}.lock`)).toBe(false);
    expect((await new TodoStore(root).list()).todos.map((t) => t.id)).toEqual(['todo-1', 'todo-2']);
  });

  test('numbers are never reused: after deletes, and past custom todo-N ids or a stored next', async () => {
    const store = new TodoStore(workspace());
    for (const title of ['a', 'b', 'c']) await store.write({ title });
    await store.write({ id: 'todo-3', action: 'delete' });
    expect((await store.write({ title: 'd' })).todo!.id).toBe('todo-4');
    await store.write({ id: 'todo-9', title: 'custom' });
    expect((await store.write({ title: 'e' })).todo!.id).toBe('todo-10');

    const other = new TodoStore(workspace());
    fs.mkdirSync(path.dirname(other.file));
    fs.writeFileSync(other.file, JSON.stringify({ todos: [{ id: 'todo-7', title: 'x', status: 'pending', priority: 'low', dependsOn: [] }] }));
    const made = await other.write({ title: 'y' });
    expect(made.todo!.id).toBe('todo-8');
    expect(made.todos[0]!.createdAt).toMatch(/^\d{4}-/); // filled in for items stored without one
    fs.writeFileSync(other.file, JSON.stringify({ version: 1, next: 20, todos: [] }));
    expect((await other.write({ title: 'z' })).todo!.id).toBe('todo-20');
  });

  test('a custom id; a partial update keeps the other fields; delete', async () => {
    const store = new TodoStore(workspace());
    const custom = await store.write({ id: 'parser.v2', title: 'Rewrite', description: 'carefully', priority: 'low', dependsOn: ['todo-1'] });
    expect(custom).toMatchObject({ created: true, todo: { id: 'parser.v2', title: 'Rewrite', priority: 'low', status: 'pending' } });
    const updated = await store.write({ id: 'parser.v2', status: 'completed' });
    expect(updated.created).toBe(false);
    expect(updated.todo).toMatchObject({ id: 'parser.v2', title: 'Rewrite', description: 'carefully', priority: 'low', status: 'completed', dependsOn: ['todo-1'] });
    expect(updated.todo!.createdAt).toBe(custom.todo!.createdAt);
    expect((await store.write({ id: 'parser.v2', description: '' })).todo).not.toHaveProperty('description');
    const deleted = await store.write({ id: 'parser.v2', action: 'delete' });
    expect(deleted).toMatchObject({ created: false, deleted: { id: 'parser.v2' }, todos: [] });
    expect(deleted.todo).toBeUndefined();
  });

  test('dependsOn is stored as given, unknown ids included; not on itself', async () => {
    const store = new TodoStore(workspace());
    await store.write({ title: 'a' });
    const b = await store.write({ title: 'b', dependsOn: ['todo-1', 'todo-99', 'todo-1'] });
    expect(b.todo!.dependsOn).toEqual(['todo-1', 'todo-99']);
    await rejectsUnchanged(store, { id: 'todo-2', dependsOn: ['todo-2'] }, /cannot depend on itself/);
    await rejectsUnchanged(store, { title: 'c', dependsOn: ['todo-3'] }, /cannot depend on itself/);
  });

  test('invalid changes are invalid_input and leave the file byte-identical', async () => {
    const store = new TodoStore(workspace());
    await store.write({ title: 'a' });
    await rejectsUnchanged(store, { id: 'todo-5', status: 'completed' }, /no todo with id todo-5; todoread lists them/);
    await rejectsUnchanged(store, { id: 'todo-5', action: 'delete' }, /no todo with id todo-5; call todoread/);
    await rejectsUnchanged(store, { action: 'delete' }, /give its id/);
    await rejectsUnchanged(store, { description: 'no title' }, /needs a title/);
    await rejectsUnchanged(store, { title: '   ' }, /must not be empty/);
    await rejectsUnchanged(store, { id: 'bad id!', title: 'x' }, /letters, digits/);
    await rejectsUnchanged(store, { id: 'todo-1' }, /Nothing to change/);
    await rejectsUnchanged(store, { id: 'todo-1', status: 'done' } as unknown as TodoChange, /status/);
    await rejectsUnchanged(store, { title: 'x', priority: 'urgent' } as unknown as TodoChange, /priority/);
    await rejectsUnchanged(store, { title: 'x'.repeat(501) }, /title/);
  });

  test('filters by status and priority', async () => {
    const store = new TodoStore(workspace());
    await store.write({ title: 'a', priority: 'high' });
    await store.write({ title: 'b', status: 'completed', priority: 'high' });
    await store.write({ title: 'c', status: 'completed' });
    const ids = (todos: Todo[]): string[] => todos.map((t) => t.id);
    expect(ids((await store.list({ status: 'completed' })).todos)).toEqual(['todo-2', 'todo-3']);
    expect(ids((await store.list({ priority: 'high' })).todos)).toEqual(['todo-1', 'todo-2']);
    expect(ids((await store.list({ status: 'completed', priority: 'high' })).todos)).toEqual(['todo-2']);
    expect((await store.list({ status: 'cancelled' })).todos).toEqual([]);
  });

  test('a file that does not parse: a read reports it and leaves it as it is; the next write keeps it aside with its bytes and starts a new list', async () => {
    const root = workspace();
    const store = new TodoStore(root);
    fs.mkdirSync(path.join(root, '.peon'));
    const original = Buffer.from('{"version":1,"todos":[{"id":"todo-1", oops\n');
    fs.writeFileSync(store.file, original);
    expect(await store.list()).toEqual({ todos: [], unreadable: true });
    expect(bytes(store).equals(original)).toBe(true); // a read renames nothing (also in restricted and plan mode)
    const written = await store.write({ title: 'fresh' });
    expect(written.todo!.id).toBe('todo-1');
    expect(written.setAside).toMatch(/^\.peon\/todos\.corrupt-\d{8}T\d{6}-[0-9a-f]{4}\.json$/);
    expect(fs.readFileSync(path.join(root, written.setAside!)).equals(original)).toBe(true);
    expect(await store.list()).toEqual({ todos: [written.todo] });
  });

  test('a file of the wrong shape is kept aside by a write, which then starts a new list; an invalid write leaves it in place', async () => {
    const root = workspace();
    const store = new TodoStore(root);
    fs.mkdirSync(path.join(root, '.peon'));
    const original = Buffer.from(JSON.stringify({ todos: [{ id: 'todo-1', title: 't', status: 'done', priority: 'high', dependsOn: [] }] }));
    fs.writeFileSync(store.file, original);
    await rejectsUnchanged(store, { id: 'todo-1', status: 'completed' });
    const written = await store.write({ title: 'after' });
    expect(written.setAside).toMatch(/^\.peon\/todos\.corrupt-/);
    expect(fs.readFileSync(path.join(root, written.setAside!)).equals(original)).toBe(true);
    expect(written.todos.map((t) => t.title)).toEqual(['after']);
    for (const bad of ['[]', '{"todos":{}}', '"x"', '{"todos":[{"id":"a","title":"x","status":"pending","priority":"low","dependsOn":[]},{"id":"a","title":"y","status":"pending","priority":"low","dependsOn":[]}]}']) {
      fs.writeFileSync(store.file, bad);
      expect((await store.list()).unreadable).toBe(true);
      expect((await store.write({ title: 'again' })).setAside).toBeDefined();
    }
    expect(fs.readdirSync(path.join(root, '.peon')).filter((n) => n.startsWith('todos.corrupt-'))).toHaveLength(5);
  });

  test('onChange after each write of this store; refresh re-reads what another store wrote', async () => {
    const root = workspace();
    const store = new TodoStore(root);
    const seen: string[][] = [];
    const off = store.onChange((todos) => seen.push(todos.map((t) => t.id)));
    await store.write({ title: 'a' });
    await store.write({ id: 'todo-1', status: 'in_progress' });
    await store.write({ id: 'nope', status: 'completed' }).catch(() => undefined);
    expect(seen).toEqual([['todo-1'], ['todo-1']]);
    await new TodoStore(root).write({ title: 'from elsewhere' });
    expect(seen).toHaveLength(2);
    expect((await store.refresh()).todos).toHaveLength(2);
    expect(seen[2]).toEqual(['todo-1', 'todo-2']);
    off();
    await store.write({ title: 'c' });
    expect(seen).toHaveLength(3);
  });

  test('concurrent writes within one process lose nothing (several store instances)', async () => {
    const root = workspace();
    const stores = [new TodoStore(root), new TodoStore(root), new TodoStore(root)];
    await Promise.all(stores.flatMap((store, s) => Array.from({ length: 10 }, (_, i) => store.write({ title: `s${s}-${i}` }))));
    const { todos } = await stores[0]!.list();
    expect(todos).toHaveLength(30);
    expect(new Set(todos.map((t) => t.id)).size).toBe(30);
  });

  test('two processes writing 25 todos each at the same time lose no update', async () => {
    const root = workspace();
    const dir = workspace();
    await build({ entryPoints: [path.resolve('src/core/todos/todoStore.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: path.join(dir, 'store.cjs'), logLevel: 'silent' });
    fs.writeFileSync(
      path.join(dir, 'writer.cjs'),
      `const { TodoStore } = require('./store.cjs');
const store = new TodoStore(process.argv[2]);
process.stdout.write('ready\\n');
process.stdin.once('data', async () => {
  try {
    for (let i = 0; i < 25; i++) await store.write({ title: process.argv[3] + ' ' + i });
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
});
`,
    );
    const children = ['A', 'B'].map((tag) => spawn(process.execPath, [path.join(dir, 'writer.cjs'), root, tag], { stdio: ['pipe', 'pipe', 'inherit'] }));
    const exits = children.map(exited);
    await Promise.all(children.map((child) => new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()))));
    for (const child of children) child.stdin!.write('go\n'); // both start together
    expect(await Promise.all(exits)).toEqual([0, 0]);
    const { todos } = await new TodoStore(root).list();
    expect(todos).toHaveLength(50);
    expect(new Set(todos.map((t) => t.id)).size).toBe(50);
    expect(new Set(todos.map((t) => t.title))).toEqual(new Set(['A', 'B'].flatMap((tag) => Array.from({ length: 25 }, (_, i) => `${tag} ${i}`))));
    expect(fs.existsSync(`${new TodoStore(root).file}.lock`)).toBe(false);
  });

  test('a stale lock (dead process, or older than 30 s) does not block', async () => {
    const root = workspace();
    const store = new TodoStore(root);
    const dead = spawn(process.execPath, ['-e', '']);
    await exited(dead);
    fs.mkdirSync(path.join(root, '.peon'));
    const lock = `${store.file}.lock`;
    fs.writeFileSync(lock, JSON.stringify({ pid: dead.pid, at: new Date().toISOString() }));
    expect((await store.write({ title: 'a' })).todo!.id).toBe('todo-1');
    expect(fs.existsSync(lock)).toBe(false);
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, at: new Date(Date.now() - 60_000).toISOString() }));
    expect((await store.write({ title: 'b' })).todo!.id).toBe('todo-2');
    expect(fs.existsSync(lock)).toBe(false);
  });

  test('a live lock makes the writer wait, then fail as unavailable naming the lock file', async () => {
    const root = workspace();
    const lock = path.join(root, 'todos.json.lock');
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
    const error = await rejection(withLockFile(lock, async () => 'never', { maxWaitMs: 150, display: '.peon/todos.json.lock' }));
    expect(error.code).toBe('unavailable');
    expect(error.message).toMatch(/locked by process \d+ .*lock file \.peon\/todos\.json\.lock/);
    expect(fs.existsSync(lock)).toBe(true); // not ours: left alone
    fs.rmSync(lock);
    expect(await withLockFile(lock, async () => 'ran', { maxWaitMs: 150 })).toBe('ran');
    expect(fs.existsSync(lock)).toBe(false);
  });
});

describe('where the todo list may live (a cloned repository may plant links, FIFOs and devices)', () => {
  test('a .peon that links out of the workspace: nothing is read, written or renamed there', async () => {
    const root = workspace();
    const outside = workspace();
    fs.writeFileSync(path.join(outside, 'todos.json'), 'my important data');
    fs.symlinkSync(outside, path.join(root, '.peon'));
    const store = new TodoStore(root);
    expect((await rejection(store.write({ title: 'x' }))).code).toBe('permission_denied');
    expect((await rejection(store.list())).code).toBe('permission_denied');
    expect(fs.readdirSync(outside)).toEqual(['todos.json']);
    expect(fs.readFileSync(path.join(outside, 'todos.json'), 'utf8')).toBe('my important data');
  });

  test('todos.json as a link (to /dev/zero, or out), a FIFO, or oversized is refused at once, never read', async () => {
    const root = workspace();
    fs.mkdirSync(path.join(root, '.peon'));
    const file = path.join(root, '.peon', 'todos.json');
    const store = new TodoStore(root);
    fs.symlinkSync('/dev/zero', file);
    expect((await rejection(store.list())).code).toBe('permission_denied');
    expect((await rejection(store.write({ title: 'x' }))).code).toBe('permission_denied');
    fs.rmSync(file);
    execFileSync('mkfifo', [file]);
    expect((await rejection(store.list())).code).toBe('permission_denied');
    fs.rmSync(file);
    fs.writeFileSync(file, Buffer.alloc(6 * 1024 * 1024, 0x20));
    expect((await rejection(store.list())).code).toBe('too_large');
    expect(fs.statSync(file).size).toBe(6 * 1024 * 1024); // not set aside, not emptied
    fs.rmSync(file);
    execFileSync('mkfifo', [`${file}.lock`]);
    expect((await rejection(store.write({ title: 'x' }))).code).toBe('permission_denied');
  });
});
