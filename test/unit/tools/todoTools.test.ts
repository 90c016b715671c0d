import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { TodoStore } from '../../../src/core/todos/todoStore';
import { builtinRegistry } from '../../../src/core/tools/builtins';
import type { AnyTool, ToolContext } from '../../../src/core/tools/contract';
import { UNREADABLE } from '../../../src/core/todos/formatTodos';
import { todoreadTool } from '../../../src/core/tools/todoread';
import { todowriteTool } from '../../../src/core/tools/todowrite';
import { ToolError } from '../../../src/core/tools/toolError';
import { makeContext, makeWorkspace } from './toolTestContext';

/** validate -> assess -> execute, as the pipeline runs a call (every todo call is allowed by default). */
async function call(tool: AnyTool, raw: unknown, ctx: ToolContext) {
  const input = tool.parse(raw);
  const assessment = await tool.assess(input, ctx);
  const result = await tool.execute(input, ctx, assessment);
  return { assessment, ...result };
}

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

function setup(): { root: string; store: TodoStore; ctx: ToolContext } {
  const root = makeWorkspace();
  const store = new TodoStore(root);
  return { root, store, ctx: makeContext(root, { todos: store }) };
}

describe('todoread, todowrite', () => {
  test('registered as built-ins with their declared risks', () => {
    const registry = builtinRegistry();
    const names = registry.list().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['todoread', 'todowrite']));
    expect(names.indexOf('todoread')).toBe(names.indexOf('bash') + 1);
    expect(todoreadTool.risk).toBe('read_only');
    expect(todowriteTool.risk).toBe('filesystem');
    expect(Object.keys((todowriteTool.inputSchema as { properties: object }).properties)).toEqual(['id', 'title', 'description', 'status', 'priority', 'dependsOn', 'action']);
  });

  test('creates todo-1, todo-2; shows the change and the whole list, dependencies and descriptions', async () => {
    const { ctx } = setup();
    const first = await call(todowriteTool, { title: 'Write the parser', priority: 'high' }, ctx);
    expect(first.assessment).toEqual({ risk: 'filesystem', writes: false, paths: [], summary: { kind: 'generic', text: 'Add todo: Write the parser' } });
    expect(first.output).toBe('Added todo-1 [pending] (high) Write the parser\n\nThe list now:\ntodo-1 [pending] (high) Write the parser');
    expect(first.data).toMatchObject({ created: true, todo: { id: 'todo-1' }, todos: [{ id: 'todo-1' }] });
    const second = await call(todowriteTool, { title: 'Test it', dependsOn: ['todo-1', 'todo-42'], description: 'unit\nand e2e' }, ctx);
    expect(second.output).toBe(
      [
        'Added todo-2 [pending] (medium) Test it — depends on todo-1, todo-42',
        '',
        'The list now:',
        'todo-1 [pending] (high) Write the parser',
        'todo-2 [pending] (medium) Test it — depends on todo-1, todo-42',
        '    unit',
        '    and e2e',
      ].join('\n'),
    );
    const read = await call(todoreadTool, {}, ctx);
    expect(read.assessment).toEqual({ risk: 'read_only', writes: false, paths: [], summary: { kind: 'generic', text: 'Read the todo list' } });
    expect(read.output).toBe(second.output.split('The list now:\n')[1]);
    expect((read.data!.todos as { dependsOn: string[] }[])[1]!.dependsOn).toEqual(['todo-1', 'todo-42']);
  });

  test('a partial update keeps the other fields; a custom id; delete; the card summaries', async () => {
    const { ctx, store } = setup();
    await call(todowriteTool, { title: 'Parser', description: 'LL(1)', priority: 'low' }, ctx);
    const update = await call(todowriteTool, { id: 'todo-1', status: 'completed' }, ctx);
    expect(update.assessment.summary).toEqual({ kind: 'generic', text: 'Update todo-1: status → completed' });
    expect(update.output).toMatch(/^Updated todo-1 \[completed\] \(low\) Parser\n/);
    expect((await store.list()).todos[0]).toMatchObject({ title: 'Parser', description: 'LL(1)', priority: 'low', status: 'completed' });
    const custom = await call(todowriteTool, { id: 'docs', title: 'Write docs' }, ctx);
    expect(custom.assessment.summary).toEqual({ kind: 'generic', text: 'Add todo docs: Write docs' });
    expect(custom.data).toMatchObject({ created: true, todo: { id: 'docs', status: 'pending', priority: 'medium' } });
    const del = await call(todowriteTool, { id: 'todo-1', action: 'delete' }, ctx);
    expect(del.assessment.summary).toEqual({ kind: 'generic', text: 'Delete todo-1' });
    expect(del.output).toBe('Deleted todo-1 (Parser).\n\nThe list now:\ndocs [pending] (medium) Write docs');
    expect(del.data).toMatchObject({ deleted: { id: 'todo-1' }, created: false });
  });

  test('an unknown id to update or delete is invalid_input and leaves the file byte-identical', async () => {
    const { ctx, store } = setup();
    await call(todowriteTool, { title: 'a' }, ctx);
    const before = fs.readFileSync(store.file);
    const update = await failure(call(todowriteTool, { id: 'todo-7', status: 'completed' }, ctx));
    expect(update.code).toBe('invalid_input');
    expect(update.message).toMatch(/no todo with id todo-7; todoread lists them/);
    const del = await failure(call(todowriteTool, { id: 'todo-7', action: 'delete' }, ctx));
    expect(del.code).toBe('invalid_input');
    expect(await failure(call(todowriteTool, { action: 'delete' }, ctx))).toMatchObject({ code: 'invalid_input' });
    expect(await failure(call(todowriteTool, { status: 'pending' }, ctx))).toMatchObject({ code: 'invalid_input' });
    expect(fs.readFileSync(store.file).equals(before)).toBe(true);
  });

  test('invalid input is rejected by the schema before anything runs', () => {
    for (const raw of [{ title: 'x', status: 'done' }, { title: 'x', priority: 'urgent' }, { title: 'x'.repeat(501) }, { title: 'x', description: 'd'.repeat(4001) }, { title: 'x', dependsOn: Array.from({ length: 51 }, (_, i) => `t${i}`) }, { title: 'x', action: 'remove' }, { title: 'x', extra: 1 }]) {
      expect(() => todowriteTool.parse(raw)).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    }
    expect(() => todoreadTool.parse({ status: 'open' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(() => todoreadTool.parse({ priority: 'urgent' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  test('todoread filters; "No todos." when empty', async () => {
    const { ctx } = setup();
    expect((await call(todoreadTool, {}, ctx)).output).toBe('No todos.');
    await call(todowriteTool, { title: 'a', priority: 'high' }, ctx);
    await call(todowriteTool, { title: 'b', status: 'in_progress' }, ctx);
    expect((await call(todoreadTool, { status: 'in_progress' }, ctx)).output).toBe('todo-2 [in_progress] (medium) b');
    expect((await call(todoreadTool, { priority: 'high' }, ctx)).output).toBe('todo-1 [pending] (high) a');
    expect((await call(todoreadTool, { status: 'completed', priority: 'low' }, ctx)).output).toBe('No todos with status completed and priority low.');
  });

  test('a file that does not parse is reported first and left as it is by todoread; todowrite keeps it aside with its bytes and starts a new list', async () => {
    const { root, store, ctx } = setup();
    fs.mkdirSync(path.join(root, '.peon'));
    fs.writeFileSync(store.file, 'not json');
    const read = await call(todoreadTool, {}, ctx);
    expect(read.output).toBe(`${UNREADABLE}\nNo todos.`);
    expect(read.data).toMatchObject({ unreadable: true });
    expect(fs.readFileSync(store.file, 'utf8')).toBe('not json');
    const write = await call(todowriteTool, { title: 'again' }, ctx);
    expect(write.output).toMatch(/^Added todo-1 .*\n\nThe list now:\nThe todo file did not parse; it was kept aside as \.peon\/todos\.corrupt-.*\ntodo-1 \[pending\] \(medium\) again$/);
    const aside = write.data!.setAside as string;
    expect(fs.readFileSync(path.join(root, aside), 'utf8')).toBe('not json');
  });

  test('without a todo list in the context: unavailable', async () => {
    const ctx = makeContext(makeWorkspace());
    expect(await failure(call(todoreadTool, {}, ctx))).toMatchObject({ code: 'unavailable' });
    expect(await failure(call(todowriteTool, { id: 'todo-1', status: 'completed' }, ctx))).toMatchObject({ code: 'unavailable' });
  });
});
