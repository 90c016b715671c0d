import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anthropicClient } from '../../../src/core/model/anthropicClient';
import { ModelError, type HistoryItem, type ModelClient, type ModelEvent } from '../../../src/core/model/modelClient';
import { openaiClient } from '../../../src/core/model/openaiClient';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { freePort } from '../../vscode/codeServer.mjs';

// Both model clients, through their official SDKs, against a real HTTP server that
// speaks each streaming protocol.
let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

const clients: [string, () => ModelClient][] = [
  ['anthropic', () => anthropicClient({ apiKey: 'sk-test', model: 'claude-test', baseUrl: server.anthropicUrl })],
  ['openai', () => openaiClient({ apiKey: 'sk-test', model: 'gpt-test', baseUrl: server.openaiUrl })],
];
const tools = [{ name: 'read', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
const request = (history: HistoryItem[] = [{ role: 'user', text: 'hi' }]) => ({ system: 'You are Peon.', history, tools, maxTokens: 1000 });

async function collect(client: ModelClient, history?: HistoryItem[], signal = new AbortController().signal): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of client.stream(request(history), signal)) events.push(event);
  return events;
}

describe.each(clients)('%s client', (_name, make) => {
  test('text streams in deltas; done carries the message, end_turn and usage', async () => {
    server.script({ text: 'Hello there, Peon.' });
    const events = await collect(make());
    const deltas = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta);
    expect(deltas.length).toBeGreaterThanOrEqual(2); // streamed, not delivered whole
    expect(deltas.join('')).toBe('Hello there, Peon.');
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', stopReason: 'end_turn', message: { role: 'assistant', text: 'Hello there, Peon.', toolCalls: [] } });
    expect(done?.type === 'done' && done.usage.cacheReadTokens).toBe(40);
  });

  test('several tool calls in one turn arrive complete, in order, with their raw arguments', async () => {
    server.script({ text: 'Reading both.', toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"a.ts"}' }, { id: 'c2', name: 'read', arguments: '{"path":"b.ts"}' }] });
    const events = await collect(make());
    const calls = events.filter((e) => e.type === 'tool_call');
    expect(calls).toEqual([
      { type: 'tool_call', call: { id: 'c1', name: 'read', arguments: '{"path":"a.ts"}' }, complete: true },
      { type: 'tool_call', call: { id: 'c2', name: 'read', arguments: '{"path":"b.ts"}' }, complete: true },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'tool_use' });
  });

  test('a stream cut inside a tool call\'s JSON flags the call incomplete and the turn cut off', async () => {
    server.script({ toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"very/long/path.ts"}' }], cut: 'in-tool-call' });
    const events = await collect(make());
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([{ type: 'tool_call', call: expect.objectContaining({ id: 'c1', name: 'read' }), complete: false }]);
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'cut_off' });
  });

  test.each([
    [429, 7, true],
    [500, undefined, true],
    [400, undefined, false],
  ])('HTTP %i is a ModelError (retry-after %s, retryable %s)', async (status, retryAfter, retryable) => {
    server.script({ status, retryAfter });
    const error = await collect(make()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status, retryable, retryAfterMs: retryAfter === undefined ? undefined : retryAfter * 1000 });
  });

  test('a refused key is an auth failure whose message says the status once', async () => {
    server.script({ status: 401 });
    const error = await collect(make()).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, retryable: false, failure: 'auth' });
    expect((error as Error).message).toBe(`${_name} answered 401: scripted 401`);
  });

  test('a server that cannot be reached is named by the URL tried', async () => {
    const port = await freePort();
    const url = _name === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
    const client = _name === 'anthropic' ? anthropicClient({ apiKey: 'k', model: 'm', baseUrl: url }) : openaiClient({ apiKey: 'k', model: 'm', baseUrl: url });
    const error = await collect(client).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: true, failure: 'unreachable', message: `${_name} could not be reached at ${url}: connection refused.` });
  });

  test('a stalled stream ends promptly when cancelled', async () => {
    server.script({ stall: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await collect(make(), undefined, controller.signal).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ModelError', retryable: false, message: 'cancelled' });
  });

  test('history with tool calls and results is sent in the provider\'s own shape', async () => {
    server.script({ text: 'ok' });
    const before = server.requests.length;
    await collect(make(), [
      { role: 'user', text: 'read a.ts' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"a.ts"}' }] },
      { role: 'tool', results: [{ callId: 'c1', output: '1\tx', isError: false }] },
    ]);
    const body = server.requests[before]!.body as Record<string, unknown>;
    expect(JSON.stringify(body)).toContain('c1');
    expect(JSON.stringify(body)).toContain('1\\tx');
  });
});

test('anthropic: prompt caching on the system prompt and the tools; thinking blocks go back verbatim', async () => {
  server.script({ text: 'ok', thinking: 'Let me think.' });
  const client = clients[0]![1]();
  const events = await collect(client);
  const done = events.at(-1);
  expect(done?.type === 'done' && done.message.opaque).toEqual([{ type: 'thinking', thinking: 'Let me think.', signature: 'sig-fake' }]);
  server.script({ text: 'again' });
  const before = server.requests.length;
  await collect(client, [{ role: 'user', text: 'hi' }, done?.type === 'done' ? done.message : { role: 'user', text: '' }, { role: 'user', text: 'more' }]);
  const body = server.requests[before]!.body as { system: { cache_control?: unknown }[]; tools: { cache_control?: unknown }[]; messages: { content: unknown }[] };
  expect(body.system[0]!.cache_control).toEqual({ type: 'ephemeral' });
  expect(body.tools.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
  expect(body.messages[1]!.content).toEqual([{ type: 'thinking', thinking: 'Let me think.', signature: 'sig-fake' }, { type: 'text', text: 'ok' }]);
});
