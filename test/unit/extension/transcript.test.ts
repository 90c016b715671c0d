import { afterAll, beforeAll, expect, test } from 'vitest';
import { runAgentTurn } from '../../../src/core/agent/loop';
import type { HistoryItem } from '../../../src/core/model/modelClient';
import { openaiClient } from '../../../src/core/model/openaiClient';
import type { Price } from '../../../src/core/model/modelInfo';
import { Transcript } from '../../../src/extension/transcript';
import type { HostMessage } from '../../../src/shared/messages';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { makeSession, makeWorkspace } from '../tools/toolTestContext';

// The panel's meter, fed by the real loop over the scripted server: the chat's totals
// and cost across prompts, and the same meter after the chat is restored.
let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

const PRICE: Price = { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 };
// Each request of the scripted OpenAI server: 100 prompt tokens (40 of them cached), 20 out.
const REQUEST_COST = (60 * 2 + 20 * 8 + 40 * 0.5) / 1e6;

async function prompt(transcript: Transcript, history: HistoryItem[], text: string, price?: Price): Promise<void> {
  const root = makeWorkspace();
  server.script({ text: `re: ${text}` });
  await runAgentTurn(history, text, {
    client: openaiClient({ apiKey: 'k', model: 'm', baseUrl: server.openaiUrl }),
    session: makeSession(root),
    system: 'sys',
    tools: [],
    signal: new AbortController().signal,
    onEvent: (e) => transcript.apply(e),
    ...(price ? { price } : {}),
  });
}

test('the meter sums the whole chat, its cost too; the restored chat shows and goes on from the same numbers', async () => {
  const posted: HostMessage[] = [];
  const transcript = new Transcript((m) => posted.push(m));
  const history: HistoryItem[] = [];
  await prompt(transcript, history, 'one', PRICE);
  await prompt(transcript, history, 'two', PRICE);
  expect(transcript.meter).toMatchObject({ contextTokens: 120, inputTokens: 120, outputTokens: 40, cacheReadTokens: 80 });
  expect(transcript.meter?.promptCost).toBeCloseTo(REQUEST_COST, 12);
  expect(transcript.meter?.chatCost).toBeCloseTo(2 * REQUEST_COST, 12);

  const restored = new Transcript(() => {});
  restored.restore(posted);
  expect(restored.meter).toEqual(transcript.meter);
  await prompt(restored, [...history], 'three', PRICE);
  expect(restored.meter).toMatchObject({ inputTokens: 180, outputTokens: 60, cacheReadTokens: 120 });
  expect(restored.meter?.chatCost).toBeCloseTo(3 * REQUEST_COST, 12);
});

test('once a request had no known price, the chat cost is unknown rather than partial', async () => {
  const transcript = new Transcript(() => {});
  const history: HistoryItem[] = [];
  await prompt(transcript, history, 'priced', PRICE);
  await prompt(transcript, history, 'unpriced');
  await prompt(transcript, history, 'priced again', PRICE);
  expect(transcript.meter?.chatCost).toBeUndefined();
  expect(transcript.meter?.promptCost).toBeCloseTo(REQUEST_COST, 12);
  expect(transcript.meter?.outputTokens).toBe(60);
});

test('an MCP tool card reads "server › tool" with its input in one line, and so it is restored; other tools as called', () => {
  const posted: HostMessage[] = [];
  const titles = (name: string, args: string) => (name === 'everything__echo' ? { title: 'everything › echo', args: `line of ${args}` } : undefined);
  const transcript = new Transcript((m) => posted.push(m), titles);
  const echo = { id: 'c1', name: 'everything__echo', arguments: '{"message":"hi"}' };
  transcript.apply({ type: 'tool_call', call: echo });
  transcript.apply({ type: 'tool_call', call: { id: 'c2', name: 'read', arguments: '{"path":"a"}' } });
  transcript.apply({ type: 'tool_result', call: echo, outcome: { tool: 'everything__echo', ok: true, output: 'Echo: hi', headline: 'everything › echo · 8 B', data: {}, risk: 'process', permission: { decision: 'ask', answer: 'approved' } as never } });
  expect(transcript.entries).toEqual([
    { kind: 'tool', id: 'e1', name: 'everything__echo', title: 'everything › echo', args: 'line of {"message":"hi"}', status: 'ok', output: 'Echo: hi', headline: 'everything › echo · 8 B', durationMs: expect.any(Number) },
    { kind: 'tool', id: 'e2', name: 'read', args: '{"path":"a"}', status: 'running', output: '', headline: 'Read a', path: 'a' },
  ]);
  const restored = new Transcript(() => {});
  restored.restore(posted);
  expect(restored.entries[0]).toEqual(transcript.entries[0]);
});

test('a tool card reads as a sentence while it runs and once it ends; denied and the diff are kept, and so restored', async () => {
  const posted: HostMessage[] = [];
  // Copied as posting does (the panel and the session file get the message as it was then).
  const transcript = new Transcript((m) => posted.push(structuredClone(m)));
  const root = makeWorkspace({ 'index.js': 'a\nb\n' });
  const history: HistoryItem[] = [];
  server.script(
    { toolCalls: [{ id: 'r1', name: 'read', arguments: '{"path":"index.js"}' }] },
    { toolCalls: [{ id: 'e1', name: 'edit', arguments: '{"path":"index.js","oldString":"b","newString":"B\\nC"}' }] },
    { toolCalls: [{ id: 'b1', name: 'bash', arguments: '{"command":"rm -rf build","description":"Clean the build"}' }] },
    { text: 'Done.' },
  );
  let asked = 0;
  const session = makeSession(root, async (request) => (request.tool === 'bash' ? { approved: false, message: 'keep the build' } : (asked++, { approved: true })));
  await runAgentTurn(history, 'go', {
    client: openaiClient({ apiKey: 'k', model: 'm', baseUrl: server.openaiUrl }),
    session,
    system: 'sys',
    tools: [],
    signal: new AbortController().signal,
    onEvent: (e) => transcript.apply(e),
  });
  const cards = transcript.entries.filter((e) => e.kind === 'tool');
  expect(cards.map((c) => [c.name, c.status, c.headline, c.detail])).toEqual([
    ['read', 'ok', 'Read index.js · lines 1–2', undefined],
    ['edit', 'ok', 'Edited index.js +2 −1', undefined],
    ['bash', 'denied', 'Run `rm -rf build`', 'Denied by you: keep the build'],
  ]);
  expect(asked).toBe(1);
  expect(cards[1]).toMatchObject({ path: 'index.js', diff: '--- a/index.js\n+++ b/index.js\n@@ -1,2 +1,3 @@\n a\n-b\n+B\n+C' });
  // What the model was told on a deny is the model's business: the card says it in the person's words.
  expect(cards[2]!.output).toBe('');
  expect(cards.every((c) => typeof c.durationMs === 'number')).toBe(true);
  // While it ran, the bash card already said what it would run, and why.
  const appended = posted.find((m) => m.type === 'append' && m.entry.kind === 'tool' && m.entry.name === 'bash');
  expect(appended).toMatchObject({ entry: { status: 'running', headline: 'Run `rm -rf build`', detail: 'Clean the build' } });
  const restored = new Transcript(() => {});
  restored.restore(posted);
  expect(restored.entries).toEqual(transcript.entries);
});

test('a retried model request is posted as it happens (not recorded), for the panel to count down', async () => {
  const posted: HostMessage[] = [];
  const transcript = new Transcript((m) => posted.push(m));
  server.script({ status: 503, retryAfter: 0 }, { text: 'Back.' });
  await runAgentTurn([], 'hello', {
    client: openaiClient({ apiKey: 'k', model: 'm', baseUrl: server.openaiUrl }),
    session: makeSession(makeWorkspace()),
    system: 'sys',
    tools: [],
    signal: new AbortController().signal,
    onEvent: (e) => transcript.apply(e),
  });
  expect(posted.filter((m) => m.type === 'retry')).toEqual([{ type: 'retry', attempt: 1, delayMs: 0, error: 'openai answered 503: scripted 503' }]);
  expect(transcript.entries.map((e) => e.kind)).toEqual(['assistant']);
});
