import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { splitPoint } from '../../../src/core/agent/compaction';
import { runAgentTurn, type LoopEvent } from '../../../src/core/agent/loop';
import type { HistoryItem } from '../../../src/core/model/modelClient';
import { openaiClient } from '../../../src/core/model/openaiClient';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { makeSession, makeWorkspace } from '../tools/toolTestContext';

let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

test('the cut is at a user message: a tool call never loses its result', () => {
  const history: HistoryItem[] = [
    { role: 'user', text: 'one' },
    { role: 'assistant', text: '', toolCalls: [{ id: 'a', name: 'list', arguments: '{}' }] },
    { role: 'tool', results: [{ callId: 'a', output: 'x', isError: false }] },
    { role: 'assistant', text: 'done', toolCalls: [] },
    { role: 'user', text: 'two' },
    { role: 'assistant', text: 'ok', toolCalls: [] },
  ];
  expect(splitPoint(history, 1)).toBe(4);
  expect(splitPoint(history, 2)).toBe(0); // nothing older than the last two prompts: no compaction
});

test('past the threshold, older turns are summarised by the model, the summary is saved to memory, and the next request carries it', async () => {
  const root = makeWorkspace();
  const client = openaiClient({ apiKey: 'k', model: 'm', baseUrl: server.openaiUrl });
  const history: HistoryItem[] = [];
  const events: LoopEvent[] = [];
  const compaction = { contextWindow: 200, threshold: 0.5, keepTurns: 1, memoryRoot: root };
  const options = { client, session: makeSession(root), system: 'sys', tools: [], signal: new AbortController().signal, onEvent: (e: LoopEvent) => events.push(e), compaction };

  server.script({ text: 'answer one' });
  const first = await runAgentTurn(history, 'first question', options);
  expect(first.contextTokens).toBeGreaterThan(100); // the fake server reports 160 tokens of context

  server.script({ text: 'The user asked a first question; it was answered.' }, { text: 'answer two' });
  const before = server.requests.length;
  const second = await runAgentTurn(history, 'second question', { ...options, contextTokens: first.contextTokens });
  expect(second.text).toBe('answer two');

  const compacted = events.find((e) => e.type === 'compacted');
  expect(compacted).toMatchObject({ type: 'compacted', summary: 'The user asked a first question; it was answered.', memoryId: expect.stringMatching(/^sum-[0-9a-f]{6}$/) });
  const summaryRequest = JSON.stringify(server.requests[before]!.body);
  expect(summaryRequest).toContain('first question');
  const next = JSON.stringify(server.requests[before + 1]!.body);
  expect(next).toContain('<summary of the earlier conversation>');
  expect(next).toContain('second question');
  expect(next).not.toContain('answer one');
  expect(history[0]).toMatchObject({ role: 'user', text: expect.stringContaining('The user asked a first question') });

  // The summary's tokens are counted too, marked so the meter does not take them for the context.
  const usage = events.filter((e) => e.type === 'usage');
  expect(usage.map((e) => e.compaction === true)).toEqual([false, true, false]);
  expect(usage.at(-1)?.total.outputTokens).toBe(40);

  const id = (compacted as { memoryId: string }).memoryId;
  expect(fs.readFileSync(path.join(root, '.peon/memory/summaries', `${id}.md`), 'utf8')).toMatch(/^---\nid: sum-[0-9a-f]{6}\nkind: summary\ncreated: .*\nsource: compaction\n---\n# Session summary .*\n\nThe user asked a first question; it was answered\.\n$/);
  expect(fs.readFileSync(path.join(root, '.peon/memory/index.md'), 'utf8')).toContain(`- ${id} (summary): Session summary`);
});
