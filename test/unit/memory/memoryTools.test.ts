// mem-search and mem-read through a real conversation, as the model and `peon tool` call them.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { resolveSettings } from '../../../src/core/settings';
import { conversationIn } from '../conversation/conversationTestKit';
import { call, lastToolResult, say, scriptedModel } from '../conversation/subagentTestKit';
import { corpus, QUERY } from './memoryCorpus';

const model = scriptedModel();

test.each([
  ['../x', 'invalid_input', /is a path; mem-read takes an entry's id/],
  ['.peon/memory/observations/obs-abcdef.md', 'invalid_input', /is a path/],
  ['/etc/passwd', 'invalid_input', /is a path/],
  ['cur-', 'invalid_input', /is not a memory id/],
  ['OBS-ABCDEF', 'invalid_input', /is not a memory id/],
  ['obs-ffffff', 'not_found', /There is no memory entry obs-ffffff/],
])('mem-read %j is a typed error (%s)', async (id, code, message) => {
  const { root } = await corpus();
  expect(await conversationIn(root).call('mem-read', { id })).toMatchObject({ ok: false, error: { code, message: expect.stringMatching(message) } });
});

test('mem-read returns the entry whole, and says it is stale once a file it cites changed', async () => {
  const { root, ids } = await corpus();
  const conversation = conversationIn(root);
  const fresh = await conversation.call('mem-read', { id: ids.flaky });
  expect(fresh).toMatchObject({ ok: true, data: { id: ids.flaky, kind: 'observation', stale: false }, headline: `Read memory ${ids.flaky} · Flaky login test` });
  expect(fresh.ok && fresh.output).toContain(`<memory_entry id="${ids.flaky}" kind="observation" title="Flaky login test" file=".peon/memory/observations/${ids.flaky}.md" stale="false">\n# Flaky login test\n\nThe login test fails`);
  fs.appendFileSync(path.join(root, 'tests/login.spec.ts'), '// changed\n');
  expect(await conversation.call('mem-read', { id: ids.flaky })).toMatchObject({ ok: true, data: { stale: true, changed: ['tests/login.spec.ts'] }, headline: expect.stringMatching(/· stale$/) });
  const searched = await conversation.call('mem-search', { query: 'flaky login', limit: 1 });
  expect(searched.ok && searched.output).toContain(`<entry id="${ids.flaky}" kind="observation" title="Flaky login test" score="`);
  expect(searched.ok && searched.output).toContain('stale="true" changed="tests/login.spec.ts"');
  // The curated file reads whole too.
  expect(await conversation.call('mem-read', { id: 'cur-agents-md' })).toMatchObject({ ok: true, data: { kind: 'curated', file: 'AGENTS.md' } });
});

test('the memory tools run without asking (semi-ask, read-only), and exist only while peon.memory.enabled is on', async () => {
  const { root } = await corpus();
  const asked: string[] = [];
  const conversation = conversationIn(root, { hooks: { approve: async (r) => (asked.push(r.tool), { approved: true }) } });
  expect(await conversation.call('mem-search', { query: QUERY })).toMatchObject({ ok: true, permission: { decision: 'allow', source: 'default for mem-search: semi-ask' } });
  expect(asked).toEqual([]);
  const off = conversationIn(root, { user: { 'peon.memory.enabled': false } });
  expect(off.toolNames).not.toContain('mem-search');
  expect(await off.call('mem-read', { id: 'cur-agents-md' })).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
  // Turned on again while the chat goes on: the tools come back.
  const on = { user: { 'peon.memory.enabled': true }, workspace: {} };
  off.configure(resolveSettings(on).values, on);
  expect(off.toolNames).toContain('mem-search');
  expect(conversationIn(root, { type: 'developer' }).toolNames).toEqual(expect.arrayContaining(['mem-search', 'mem-read']));
  expect(conversationIn(root, { type: 'explorer' }).toolNames).not.toContain('mem-search');
});

test("in a turn, the llm gate asks the conversation's own model which candidates are relevant", async () => {
  const { root, store } = await corpus();
  const pick = store.rank(QUERY).filter((r) => r.normalised >= 0.3)[1]!.key;
  const conversation = conversationIn(root, { user: { 'peon.memory.relevanceGate': 'llm' } });
  model.server.script(call('mem-search', { query: QUERY }), { text: `["${pick}"]` }, say('Found it.'));
  await conversation.turn('what do we know about the login test?', model.client(), () => {});
  const requests = model.server.requests.map((r: { body: unknown }) => JSON.stringify(r.body));
  expect(requests[1]).toContain('You pick which stored notes from earlier coding sessions are relevant');
  const result = lastToolResult(model.server.requests[2].body);
  expect(result).toContain(`gate="llm" count="1"`);
  expect(result).toContain(`<entry id="${pick}"`);
});

test('closing a chat writes its summary to memory (no model request), which mem-search then finds', async () => {
  const { root } = await corpus();
  const conversation = conversationIn(root);
  model.server.script(call('write', { path: 'src/zeppelin.ts', content: 'export {};\n' }), say('Wrote the zeppelin module.'));
  await conversation.turn('create the zeppelin module', model.client(), () => {});
  const requests = model.server.requests.length;
  const id = await conversation.closeToMemory();
  expect(model.server.requests.length).toBe(requests);
  expect(id).toMatch(/^sum-[0-9a-f]{6}$/);
  const text = fs.readFileSync(path.join(root, '.peon/memory/summaries', `${id}.md`), 'utf8');
  expect(text).toMatch(/# Session \d{4}-\d\d-\d\d \d\d:\d\d: create the zeppelin module/);
  expect(text).toContain('## Files changed\n- src/zeppelin.ts');
  expect(text).toContain('## Last answer\nWrote the zeppelin module.');
  const found = await conversation.call('mem-search', { query: 'zeppelin' });
  expect(found.ok && found.output).toContain(`<entry id="${id}" kind="summary"`);
  // Nothing answered: nothing written.
  expect(await conversationIn(root).closeToMemory()).toBeUndefined();
});
