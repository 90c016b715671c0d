import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { permissionConfig } from '../../../src/core/permissions/rules';
import * as z from 'zod';
import type { Assessment } from '../../../src/core/tools/contract';
import { defineTool } from '../../../src/core/tools/defineTool';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { CallPipeline } from '../../../src/core/conversation/pipeline';
import { builtinRegistry } from '../../../src/core/tools/builtins';
import { makeContext, makeWorkspace } from './toolTestContext';

const readOnly = (): Assessment => ({ risk: 'read_only', writes: false, paths: [], summary: { kind: 'generic', text: 'probe' } });

function probe(name: string, execute: (input: { n: number }, signal: AbortSignal) => Promise<string>) {
  return defineTool({
    name,
    description: 'A probe tool for runtime tests.',
    input: z.object({ n: z.number().int() }),
    risk: 'read_only',
    aliases: { num: 'n' },
    assess: async () => readOnly(),
    execute: async (input, ctx) => ({ output: await execute(input, ctx.signal) }),
  });
}

describe('registry', () => {
  test.each(['', 'has space', 'dot.name', 'ü', 'x'.repeat(65), 'slash/name'])('rejects the malformed name %j', (name) => {
    expect(() => new ToolRegistry().register(probe(name, async () => ''))).toThrow(/is invalid/);
  });

  test('accepts the full name alphabet, up to 64 characters', () => {
    const registry = new ToolRegistry();
    registry.register(probe('Az09_-', async () => ''));
    registry.register(probe('x'.repeat(64), async () => ''));
    expect(registry.list().map((t) => t.name)).toEqual(['Az09_-', 'x'.repeat(64)]);
  });

  test('rejects a duplicate name', () => {
    const registry = new ToolRegistry();
    registry.register(probe('p', async () => ''));
    expect(() => registry.register(probe('p', async () => ''))).toThrow(/already registered/);
  });

  test('rejects an unknown risk and an empty description', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register({ ...probe('a', async () => ''), risk: 'network' as never })).toThrow(/unknown risk/);
    expect(() => registry.register({ ...probe('b', async () => ''), description: '' })).toThrow(/no description/);
  });
});

describe('defineTool', () => {
  test('derives a strict JSON Schema from zod', () => {
    expect(probe('p', async () => '').inputSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER } },
      required: ['n'],
      additionalProperties: false,
    });
  });

  test('aliases map to the canonical name; non-objects and unknown keys are invalid_input', () => {
    const tool = probe('p', async () => '');
    expect(tool.parse({ num: 3 })).toEqual({ n: 3 });
    for (const raw of [null, [], 'x', 5, { n: 1, extra: true }, { n: 1.5 }]) {
      expect(() => tool.parse(raw), JSON.stringify(raw)).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    }
  });
});

describe('session', () => {
  test('calls run serially in the order they were made, each with exactly one outcome', async () => {
    const log: string[] = [];
    const registry = new ToolRegistry();
    registry.register(
      probe('slow', async ({ n }) => {
        log.push(`start ${n}`);
        await new Promise((r) => setTimeout(r, 20 - n * 5));
        log.push(`end ${n}`);
        return String(n);
      }),
    );
    const session = new CallPipeline(registry, makeContext(makeWorkspace()), async () => ({ approved: true }));
    const outcomes = await Promise.all([0, 1, 2].map((n) => session.call('slow', { n })));
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
    expect(outcomes.map((o) => o.ok && o.output)).toEqual(['0', '1', '2']);
  });

  test('a throwing tool becomes an io_error outcome and the next call still runs', async () => {
    const registry = new ToolRegistry();
    registry.register(probe('boom', async () => Promise.reject(new Error('disk on fire'))));
    registry.register(probe('fine', async () => 'ok'));
    const session = new CallPipeline(registry, makeContext(makeWorkspace()), async () => ({ approved: true }));
    expect(await session.call('boom', { n: 1 })).toMatchObject({ ok: false, error: { code: 'io_error', message: 'Unexpected error: disk on fire' } });
    expect(await session.call('fine', { n: 1 })).toMatchObject({ ok: true, output: 'ok' });
  });

  test('cancellation and the deadline reach the tool and give cancelled / timeout', async () => {
    const registry = new ToolRegistry();
    const waitForAbort = (_: unknown, signal: AbortSignal) =>
      new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    registry.register(probe('wait', waitForAbort));
    const controller = new AbortController();
    const session = new CallPipeline(registry, makeContext(makeWorkspace(), { signal: controller.signal }), async () => ({ approved: true }));
    const pending = session.call('wait', { n: 1 });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    const timed = new CallPipeline(registry, makeContext(makeWorkspace(), { timeoutMs: 50 }), async () => ({ approved: true }));
    expect(await timed.call('wait', { n: 1 })).toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  test('an unknown tool is answered with the list of tools', async () => {
    const session = new CallPipeline(builtinRegistry(), makeContext(makeWorkspace()), async () => ({ approved: true }));
    const r = await session.call('rm', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
    expect(r.ok === false && r.error.message).toMatch(/Available tools: read, write, edit, delete, list/);
  });

  test('a denial with a message passes the message to the model', async () => {
    const session = new CallPipeline(builtinRegistry(), makeContext(makeWorkspace()), async () => ({ approved: false, message: 'use src/ instead' }));
    const r = await session.call('write', { path: 'a.txt', content: 'x' });
    expect(r.ok === false && r.error.message).toBe('The user denied this write call (it changes files). They said: use src/ instead Do not retry it unchanged.');
  });
});

describe('what the person answered, and what they had open', () => {
  test('a file open with unsaved changes asks before any write, even under an allow rule, and is never granted', async () => {
    const root = makeWorkspace({ 'a.txt': 'old\n' });
    const seen: { reasons: readonly string[]; grantable: readonly string[] }[] = [];
    const rules = permissionConfig({ user: { 'peon.permission.rules': { write: 'allow' } }, workspace: {} });
    const session = new CallPipeline(
      builtinRegistry(),
      makeContext(root, { unsaved: (canonical) => canonical === path.join(root, 'a.txt') }),
      async (request) => {
        seen.push(request.permission);
        return { approved: true, scope: 'session' };
      },
      rules,
    );
    const outcome = await session.call('write', { path: 'a.txt', content: 'new\n' });
    expect(outcome).toMatchObject({ ok: true, permission: { decision: 'ask', answer: 'approved' } });
    expect(seen[0]?.reasons[0]).toBe('a.txt is open in the editor with unsaved changes: approving writes the file on disk, and your unsaved text stays in the editor');
    expect(seen[0]?.grantable).toEqual([]);
    expect(session.grants.list()).toEqual([]);
    // Another file, not open: the allow rule runs it without asking.
    expect(await session.call('write', { path: 'b.txt', content: 'b\n' })).toMatchObject({ ok: true, permission: { decision: 'allow' } });
    expect(seen).toHaveLength(1);
  });

  test('"Allow for this chat" grants for the session; "Always allow" does not (its rule is in the person\'s settings, listed apart)', async () => {
    for (const scope of ['session', 'always'] as const) {
      const session = new CallPipeline(builtinRegistry(), makeContext(makeWorkspace()), async () => ({ approved: true, scope }));
      expect(await session.call('write', { path: 'a.txt', content: 'a\n' })).toMatchObject({ ok: true, permission: { answer: 'approved' } });
      expect(session.grants.list(), scope).toEqual(scope === 'session' ? [{ tool: 'write', pattern: 'a.txt' }] : []);
    }
  });

  test('an edited proposal is written instead of the model\'s, and the model is told; a stale file refuses it', async () => {
    const root = makeWorkspace();
    const session = new CallPipeline(builtinRegistry(), makeContext(root), async () => ({ approved: true, edited: 'the person wrote this\n' }));
    const outcome = await session.call('write', { path: 'n.txt', content: 'the model wrote this\n' });
    expect(outcome).toMatchObject({ ok: true, data: { editedByUser: true } });
    expect(outcome.ok && outcome.output).toContain('The user edited your proposed change to n.txt before approving it');
    expect(fs.readFileSync(path.join(root, 'n.txt'), 'utf8')).toBe('the person wrote this\n');

    const racing = new CallPipeline(builtinRegistry(), makeContext(root), async () => {
      fs.writeFileSync(path.join(root, 'm.txt'), 'someone else got here first\n');
      return { approved: true, edited: 'mine\n' };
    });
    expect(await racing.call('write', { path: 'm.txt', content: 'model\n' })).toMatchObject({ ok: false, error: { code: 'stale' } });
    expect(fs.readFileSync(path.join(root, 'm.txt'), 'utf8')).toBe('someone else got here first\n');
  });
});
