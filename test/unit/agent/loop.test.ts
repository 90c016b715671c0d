import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runAgentTurn, type LoopEvent } from '../../../src/core/agent/loop';
import { anthropicClient } from '../../../src/core/model/anthropicClient';
import type { HistoryItem, ModelClient } from '../../../src/core/model/modelClient';
import { openaiClient } from '../../../src/core/model/openaiClient';
import { builtinRegistry } from '../../../src/core/tools/builtins';
import type { Approver } from '../../../src/core/permissions/approvals';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { approveAll, makeSession, makeWorkspace } from '../tools/toolTestContext';

// The loop with real pieces: the official SDK clients over HTTP to the scripted server,
// the real tool session over a temp workspace.
let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

const tools = builtinRegistry()
  .list()
  .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));

function run(client: ModelClient, root: string, prompt: string, extra: { approve?: Approver; signal?: AbortSignal; maxSteps?: number; idleMs?: number } = {}) {
  const events: LoopEvent[] = [];
  const history: HistoryItem[] = [];
  // One signal for the run and its tool session, as the host wires them (Stop cancels both).
  const signal = extra.signal ?? new AbortController().signal;
  const promise = runAgentTurn(history, prompt, {
    client,
    session: makeSession(root, extra.approve ?? approveAll, { signal }),
    system: 'You are Peon.',
    tools,
    signal,
    onEvent: (e) => events.push(e),
    maxSteps: extra.maxSteps ?? 10,
    retry: { baseMs: 10, maxMs: 50, idleMs: extra.idleMs ?? 10_000 },
  });
  return { events, history, promise };
}

/** Every tool call in history has exactly one result, right after it. */
function expectValidHistory(history: HistoryItem[]): void {
  history.forEach((item, i) => {
    if (item.role !== 'assistant' || item.toolCalls.length === 0) return;
    const next = history[i + 1];
    expect(next?.role).toBe('tool');
    expect(next?.role === 'tool' && next.results.map((r) => r.callId)).toEqual(item.toolCalls.map((c) => c.id));
  });
}

describe.each([
  ['anthropic', () => anthropicClient({ apiKey: 'k', model: 'm', baseUrl: server.anthropicUrl })],
  ['openai', () => openaiClient({ apiKey: 'k', model: 'm', baseUrl: server.openaiUrl })],
])('the loop over %s', (_name, client) => {
  test('prompt -> streamed text -> done', async () => {
    server.script({ text: 'All good.' });
    const { events, promise } = run(client(), makeWorkspace(), 'hi');
    expect(await promise).toMatchObject({ reason: 'end_turn', text: 'All good.' });
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)).toMatchObject({ type: 'final', reason: 'end_turn' });
  });

  test('a read tool call runs; its result goes back; the final answer follows', async () => {
    const root = makeWorkspace({ 'a.txt': 'alpha\n' });
    server.script({ toolCalls: [{ id: 't1', name: 'read', arguments: '{"path":"a.txt"}' }] }, { text: 'It says alpha.' });
    const before = server.requests.length;
    const { events, history, promise } = run(client(), root, 'what is in a.txt?');
    expect(await promise).toMatchObject({ reason: 'end_turn', text: 'It says alpha.' });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ outcome: { ok: true, output: '1\talpha' } });
    expect(JSON.stringify(server.requests[before + 1]!.body)).toContain('1\\talpha');
    expectValidHistory(history);
  });

  test('several calls in one turn run in order; cut-off, malformed and unknown calls never run but are answered', async () => {
    const root = makeWorkspace();
    server.script(
      {
        toolCalls: [
          { id: 'w1', name: 'write', arguments: '{"path":"first.txt","content":"1"}' },
          { id: 'w2', name: 'write', arguments: '[1,2]' },
          { id: 'w3', name: 'frobnicate', arguments: '{}' },
          { id: 'w4', name: 'write', arguments: 'not json' },
        ],
      },
      { toolCalls: [{ id: 'w5', name: 'write', arguments: '{"path":"cut.txt","content":"never"}' }], cut: 'in-tool-call' },
      { text: 'done' },
    );
    const { events, history, promise } = run(client(), root, 'write things');
    expect(await promise).toMatchObject({ reason: 'end_turn' });
    const results = events.filter((e) => e.type === 'tool_result').map((e) => (e.outcome.ok ? 'ok' : e.outcome.error.code));
    expect(results).toEqual(['ok', 'invalid_input', 'unknown_tool', 'invalid_input', 'invalid_input']);
    expect(fs.existsSync(path.join(root, 'first.txt'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'cut.txt'))).toBe(false);
    expectValidHistory(history);
  });

  test('429 with retry-after, then 500, then success: retried, the answer arrives', async () => {
    server.script({ status: 429, retryAfter: 0.05 }, { status: 500 }, { text: 'finally' });
    const { events, promise } = run(client(), makeWorkspace(), 'hi');
    expect(await promise).toMatchObject({ reason: 'end_turn', text: 'finally' });
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 50 });
  });

  test('a stream that goes silent is abandoned and retried', async () => {
    server.script({ stall: true }, { text: 'back' });
    const { events, promise } = run(client(), makeWorkspace(), 'hi', { idleMs: 300 });
    expect(await promise).toMatchObject({ reason: 'end_turn', text: 'back' });
    expect(events.some((e) => e.type === 'retry')).toBe(true);
  });

  test('the same failing call three times stops the loop with an explanation', async () => {
    const bad = { toolCalls: [{ id: 'r', name: 'read', arguments: '{"path":"missing.txt"}' }] };
    server.script(bad, bad, bad);
    const { history, events, promise } = run(client(), makeWorkspace(), 'read it');
    expect((await promise).reason).toBe('repeated_failure');
    expect(events.at(-1)).toMatchObject({ type: 'final', error: expect.stringMatching(/same failing read call was made 3 times/) });
    expectValidHistory(history);
  });

  test('the step cap ends a loop that never stops calling tools', async () => {
    const call = (n: number) => ({ toolCalls: [{ id: `l${n}`, name: 'list', arguments: '{}' }] });
    server.script(call(1), call(2));
    const { history, promise } = run(client(), makeWorkspace(), 'loop', { maxSteps: 2 });
    expect((await promise).reason).toBe('step_cap');
    expectValidHistory(history);
  });

  test('cancel while a card is pending: the call is denied, the loop ends cancelled, the history stays valid', async () => {
    const controller = new AbortController();
    const approve: Approver = (_request, signal) =>
      new Promise((resolve) => signal.addEventListener('abort', () => resolve({ approved: false, message: 'cancelled' }), { once: true }));
    server.script({ toolCalls: [{ id: 'p1', name: 'write', arguments: '{"path":"x.txt","content":"x"}' }, { id: 'p2', name: 'read', arguments: '{"path":"x.txt"}' }] });
    const root = makeWorkspace();
    const { history, events, promise } = run(client(), root, 'write', { approve, signal: controller.signal });
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    expect((await promise).reason).toBe('cancelled');
    expect(fs.existsSync(path.join(root, 'x.txt'))).toBe(false);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(2);
    expectValidHistory(history);
  });
});
