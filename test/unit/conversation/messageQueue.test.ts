// The person's messages during a turn (walkthrough #15): queued, removable until the next
// step, then in the history as user messages before the next model request; and a
// conversation rewound (a message edited) or a turn run again (Retry).
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LoopEvent } from '../../../src/core/agent/loop';
import { anthropicClient } from '../../../src/core/model/anthropicClient';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { makeWorkspace } from '../tools/toolTestContext';
import { conversationIn } from './conversationTestKit';

let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

type Body = { messages: { role: string; content: unknown }[] };
const texts = (body: unknown): string[] =>
  (body as Body).messages.flatMap((m) => (typeof m.content === 'string' ? [`${m.role}: ${m.content}`] : (m.content as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => `${m.role}: ${c.text}`)));

test('a message queued during a turn joins the history before the next request; one taken back never does', async () => {
  const client = anthropicClient({ apiKey: 'k', model: 'm', baseUrl: server.anthropicUrl });
  const conversation = conversationIn(makeWorkspace({ 'a.txt': 'one\n' }));
  server.reset();
  server.script({ toolCalls: [{ id: 'c1', name: 'read', arguments: JSON.stringify({ path: 'a.txt' }) }] }, { text: 'Read it, and noted.' });
  const events: LoopEvent[] = [];
  await conversation.turn('look at a.txt', client, (event) => {
    events.push(event);
    // While the read runs, the person types twice and takes the second back.
    if (event.type === 'tool_call') {
      conversation.queue.add('also update the README');
      const second = conversation.queue.add('never mind this');
      expect(conversation.queue.remove(second.id)).toBe(true);
      expect(conversation.queue.messages.map((m) => m.text)).toEqual(['also update the README']);
    }
  });
  expect(texts(server.requests[0]!.body)).toEqual(['user: look at a.txt']);
  const second = texts(server.requests[1]!.body);
  expect(second.at(-1)).toBe('user: also update the README');
  expect(second.join('\n')).not.toContain('never mind this');
  expect(events.filter((e) => e.type === 'prompt')).toEqual([
    { type: 'prompt', text: 'look at a.txt' },
    { type: 'prompt', text: 'also update the README', incoming: true, queued: 'q1' },
  ]);
  expect(conversation.queue.messages).toEqual([]);
  expect(conversation.history.filter((h) => h.role === 'user').map((h) => h.text)).toEqual(['look at a.txt', 'also update the README']);
  // Delivered: it cannot be taken back any more.
  expect(conversation.queue.remove('q1')).toBe(false);
});

test('rewound to before a message, the conversation goes on from there; run again, a turn repeats its prompt once', async () => {
  const client = anthropicClient({ apiKey: 'k', model: 'm', baseUrl: server.anthropicUrl });
  const conversation = conversationIn(makeWorkspace());
  server.reset();
  server.script({ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Second answer, again.' }, { text: 'Edited answer.' });
  await conversation.turn('first question', client, () => {});
  await conversation.turn('second question', client, () => {});
  expect(conversation.history).toHaveLength(4);

  // Retry the last answer: cut after its prompt, run again from it.
  conversation.rewind(3);
  const prompts: string[] = [];
  await conversation.turn('ignored: the history holds the prompt', client, (e) => e.type === 'prompt' && prompts.push(e.text), { again: true });
  expect(prompts).toEqual(['second question']);
  expect(texts(server.requests[2]!.body)).toEqual(['user: first question', 'assistant: First answer.', 'user: second question']);

  // Edit the second question: cut before it, send the new text.
  conversation.rewind(2);
  await conversation.turn('second question, edited', client, () => {});
  expect(texts(server.requests[3]!.body)).toEqual(['user: first question', 'assistant: First answer.', 'user: second question, edited']);
  expect(conversation.history.map((h) => ('text' in h ? h.text : h.role))).toEqual(['first question', 'First answer.', 'second question, edited', 'Edited answer.']);
});
