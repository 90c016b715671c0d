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
    { kind: 'tool', id: 'e1', name: 'everything__echo', title: 'everything › echo', args: 'line of {"message":"hi"}', status: 'ok', output: 'Echo: hi', headline: 'everything › echo · 8 B' },
    { kind: 'tool', id: 'e2', name: 'read', args: '{"path":"a"}', status: 'running', output: '' },
  ]);
  const restored = new Transcript(() => {});
  restored.restore(posted);
  expect(restored.entries[0]).toEqual(transcript.entries[0]);
});
