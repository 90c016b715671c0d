// The panel's history, message actions and trash over real temp folders and a real
// conversation (the VS Code side, modals and the save dialog, given as plain functions).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openaiClient } from '../../../src/core/model/openaiClient';
import { SessionStore, type SessionRecord } from '../../../src/core/sessions/sessionStore';
import { fileNameOf, PanelHistory } from '../../../src/extension/panelHistory';
import { PanelMessages, type RewindPoint } from '../../../src/extension/panelMessages';
import { PanelTrash } from '../../../src/extension/panelTrash';
import { Transcript } from '../../../src/extension/transcript';
import { Trash } from '../../../src/core/workspace/trash';
import type { HostMessage } from '../../../src/shared/messages';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { conversationIn } from '../conversation/conversationTestKit';
import { makeWorkspace, tempDir } from '../tools/toolTestContext';

let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

describe('history', () => {
  function history(answers: { delete?: boolean } = {}) {
    const store = new SessionStore(tempDir());
    const posted: HostMessage[] = [];
    const saved: { name: string; markdown: string }[] = [];
    let current: string | undefined;
    const deleted: string[] = [];
    const panel = new PanelHistory(store, (m) => posted.push(m), { current: () => current, resume: (id) => (current = id), deleteSession: (id) => (deleted.push(id), store.delete(id)) }, {
      confirmDelete: async () => answers.delete ?? false,
      saveMarkdown: async (name, markdown) => (saved.push({ name, markdown }), name),
      warn: () => {},
    });
    return { store, posted, panel, saved, deleted, setCurrent: (id: string | undefined) => (current = id) };
  }
  const last = <T extends HostMessage['type']>(posted: HostMessage[], type: T) => posted.filter((m) => m.type === type).at(-1) as Extract<HostMessage, { type: T }> | undefined;

  test('the chat shown is reopened once a window, only while it is saved', () => {
    const { store, panel } = history();
    const id = store.create('Fix it.').id;
    panel.shown(id);
    expect(panel.toReopen()).toBe(id);
    expect(panel.toReopen()).toBeUndefined(); // only the window's first page
    // The next window (a new panel over the same folder) reopens it; not once it is deleted.
    const next = new PanelHistory(new SessionStore(store.dir), () => {}, { current: () => undefined, resume: () => {}, deleteSession: () => {} }, { confirmDelete: async () => false, saveMarkdown: async () => undefined, warn: () => {} });
    expect(next.toReopen()).toBe(id);
    // New Chat (or another chat resumed) before the window's first page asked: nothing is reopened over it.
    const chose = new PanelHistory(new SessionStore(store.dir), () => {}, { current: () => undefined, resume: () => {}, deleteSession: () => {} }, { confirmDelete: async () => false, saveMarkdown: async () => undefined, warn: () => {} });
    chose.chosen();
    expect(chose.toReopen()).toBeUndefined();
    store.delete(id);
    const after = new PanelHistory(new SessionStore(store.dir), () => {}, { current: () => undefined, resume: () => {}, deleteSession: () => {} }, { confirmDelete: async () => false, saveMarkdown: async () => undefined, warn: () => {} });
    expect(after.toReopen()).toBeUndefined();
    // A new chat shown: nothing to reopen; an id that is not one is refused, not written as a path.
    const again = history();
    const other = again.store.create('Other.').id;
    again.panel.shown(other);
    again.panel.shown(undefined);
    expect(again.panel.toReopen()).toBeUndefined();
    expect(() => again.store.setShown('../escape')).toThrow(/Not a session id/);
    expect(fs.existsSync(path.join(again.store.dir, '..', 'escape'))).toBe(false);
  });

  test('recent chats leave out the one shown and empty ones; delete asks, and a refusal deletes nothing; export names the file after the title', async () => {
    const refusing = history({ delete: false });
    const a = refusing.store.create('First question.').id;
    refusing.store.append(a, { type: 'view', message: { type: 'append', entry: { kind: 'user', id: 'e1', text: 'First question.' } } });
    refusing.store.create('Nothing sent yet.');
    refusing.panel.recent();
    expect(last(refusing.posted, 'recentChats')?.sessions.map((s) => s.title)).toEqual(['First question']);
    refusing.setCurrent(a);
    refusing.panel.recent();
    expect(last(refusing.posted, 'recentChats')?.sessions).toEqual([]);
    await refusing.panel.delete(a);
    expect(refusing.deleted).toEqual([]);
    expect(refusing.store.exists(a)).toBe(true);
    await refusing.panel.export(a);
    expect(refusing.saved[0]).toMatchObject({ name: 'First question.md', markdown: expect.stringContaining('## You\n\nFirst question.') });

    const agreeing = history({ delete: true });
    const b = agreeing.store.create('Delete me.').id;
    agreeing.panel.list('');
    await agreeing.panel.delete(b);
    expect(agreeing.deleted).toEqual([b]);
    expect(last(agreeing.posted, 'history')?.sessions).toEqual([]);
  });

  test.each([
    ['Fix: the a/b test?', 'Fix the a b test.md'],
    ['   ', 'Peon chat.md'],
    ['Why…', 'Why.md'],
  ])('the export of %j is saved as %j', (title, name) => {
    expect(fileNameOf(title)).toBe(name);
  });
});

describe('messages', () => {
  function messages(root = makeWorkspace({ 'a.txt': 'one\n' })) {
    const conversation = conversationIn(root);
    const posted: HostMessage[] = [];
    const records: SessionRecord[] = [];
    const rewinds: RewindPoint[] = [];
    const transcript = new Transcript((m) => posted.push(m));
    const client = openaiClient({ apiKey: 'k', model: 'fake-model', baseUrl: server.openaiUrl });
    const panel: PanelMessages = new PanelMessages({
      transcript,
      conversation: () => conversation,
      ensureConversation: () => conversation,
      record: (r) => records.push(r),
      post: (m) => posted.push(m),
      send: async (text) => {
        const entry = transcript.append({ kind: 'user', text });
        await run(text, entry);
      },
      run: (text, entry, again) => run(text, entry, again),
      attached: new Map(),
      beforeRewind: (point) => rewinds.push(point) > 0,
      warn: () => {},
    });
    async function run(text: string, entry: string, again = false): Promise<void> {
      const result = await conversation.turn(text, client, (event) => (panel.onEvent(event, entry), transcript.apply(event)), again ? { again } : {});
      await panel.afterTurn(result.reason === 'cancelled');
    }
    return { conversation, transcript, panel, records, rewinds, posted, send: (text: string) => panel.queue(text) };
  }
  const shown = (t: Transcript) => t.entries.filter((e) => e.kind === 'user' || e.kind === 'assistant').map((e) => `${e.kind}: ${'text' in e ? e.text : ''}`);

  test('queued during a turn: delivered at its next step into the transcript, marked where it joined the history; one left when the turn ends goes on as the next message', async () => {
    const m = messages();
    server.reset();
    const read = { toolCalls: [{ id: 'c1', name: 'read', arguments: JSON.stringify({ path: 'a.txt' }) }] };
    server.script(read, { hold: true, ...read, toolCalls: [{ ...read.toolCalls[0]!, id: 'c2' }] }, { hold: true, text: 'Read it.' }, { text: 'And the second.' });
    m.panel.queue('look at a.txt'); // no turn runs: sent now
    await expect.poll(() => server.holding).toBe(1);
    m.panel.queue('also the README');
    expect(m.posted.filter((p) => p.type === 'queue').at(-1)).toEqual({ type: 'queue', messages: [{ id: 'q1', text: 'also the README' }] });
    server.release();
    await expect.poll(() => server.holding).toBe(1);
    m.panel.queue('after the turn');
    server.release();
    await expect.poll(() => shown(m.transcript)).toEqual(['user: look at a.txt', 'user: also the README', 'assistant: Read it.', 'user: after the turn', 'assistant: And the second.']);
    expect(m.records.filter((r) => r.type === 'mark')).toEqual([
      { type: 'mark', entry: 'e1', at: 0 },
      { type: 'mark', entry: m.transcript.entries.find((e) => 'text' in e && e.text === 'also the README')!.id, at: 5 },
      { type: 'mark', entry: m.transcript.entries.find((e) => 'text' in e && e.text === 'after the turn')!.id, at: 7 },
    ]);
    expect(m.posted.filter((p) => p.type === 'queue').at(-1)).toEqual({ type: 'queue', messages: [] });
  });

  test('Edit cuts the history and the transcript at the message and resends; Retry keeps the prompt; both call the rewind hook first; after a compaction a message cannot be changed', async () => {
    const m = messages();
    server.reset();
    server.script({ text: 'A1' }, { text: 'A2' }, { text: 'A2, again' }, { text: 'Edited.' });
    m.panel.queue('Q1');
    await expect.poll(() => shown(m.transcript)).toEqual(['user: Q1', 'assistant: A1']);
    m.panel.queue('Q2');
    await expect.poll(() => shown(m.transcript)).toEqual(['user: Q1', 'assistant: A1', 'user: Q2', 'assistant: A2']);
    const answer = m.transcript.entries.at(-1)!.id;
    await m.panel.retry(answer);
    expect(shown(m.transcript)).toEqual(['user: Q1', 'assistant: A1', 'user: Q2', 'assistant: A2, again']);
    expect(m.rewinds).toEqual([{ entryId: 'e3', text: 'Q2', historyLength: 2, reason: 'retry' }]);
    expect(m.records).toContainEqual({ type: 'truncate', length: 3 });
    // Retry is for the last answer only.
    await m.panel.retry('e2');
    expect(m.rewinds).toHaveLength(1);

    await m.panel.edit('e1', 'Q1, edited');
    expect(shown(m.transcript)).toEqual(['user: Q1, edited', 'assistant: Edited.']);
    expect(m.conversation.history.map((h) => ('text' in h ? h.text : h.role))).toEqual(['Q1, edited', 'Edited.']);
    expect(m.rewinds.at(-1)).toEqual({ entryId: 'e1', text: 'Q1', historyLength: 0, reason: 'edit' });
    // The removed entries went to the webview (and the session) as removals.
    expect(m.posted.filter((p) => p.type === 'remove').map((p) => (p as { id: string }).id)).toEqual(['e4', 'e1', 'e2', 'e3', 'e5']);

    m.panel.historyReset(); // a compaction rewrote the history
    const edited = m.transcript.entries[0]!.id;
    await m.panel.edit(edited, 'too late');
    expect(m.transcript.entries.at(-1)).toMatchObject({ kind: 'notice', text: expect.stringContaining('can no longer be changed') });
    expect(m.rewinds).toHaveLength(2);
  });
});

describe('trash', () => {
  test("lists only this chat's deletions; restores one; beside a file that exists again only after asking, and never over it", async () => {
    const root = makeWorkspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const trashDir = path.join(tempDir(), 'trash');
    const posted: HostMessage[] = [];
    const records: SessionRecord[] = [];
    let agree = false;
    const panel = new PanelTrash(trashDir, (m) => posted.push(m), (r) => records.push(r), { shown: (f) => path.relative(root, f), confirmBeside: async () => agree, warn: () => {} });
    // Another chat's deletion, in the same (workspace's) trash.
    const other = conversationIn(root, { extra: { trashDir } });
    expect(await other.call('delete', { path: 'b.txt' })).toMatchObject({ ok: true });
    const mine = conversationIn(root, { extra: { trashDir } });
    const outcome = await mine.call('delete', { path: 'a.txt' });
    expect(outcome).toMatchObject({ ok: true });
    panel.onEvent({ type: 'tool_result', call: { id: 'c1', name: 'delete', arguments: '{"path":"a.txt"}' }, outcome });
    await expect.poll(() => posted.at(-1)).toMatchObject({ type: 'trash', entries: [{ path: 'a.txt', size: 4, link: false }] });
    expect(records).toEqual([{ type: 'trashed', trashId: (posted.at(-1) as { entries: { id: string }[] }).entries[0]!.id }]);
    const id = (posted.at(-1) as { entries: { id: string }[] }).entries[0]!.id;

    // The other chat's entry is not this chat's to restore.
    const othersId = (await new Trash(trashDir).list()).find((e) => e.originalPath.endsWith('b.txt'))!.id;
    await panel.restore(othersId);
    expect(fs.existsSync(path.join(root, 'b.txt'))).toBe(false);

    fs.writeFileSync(path.join(root, 'a.txt'), 'new\n');
    await panel.restore(id); // asked, and refused: nothing happens
    expect(fs.readdirSync(root).sort()).toEqual(['a.txt']);
    agree = true;
    await panel.restore(id);
    expect(fs.readFileSync(path.join(root, 'a (restored).txt'), 'utf8')).toBe('one\n');
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('new\n');
    expect(posted.at(-1)).toEqual({ type: 'trash', entries: [], note: 'Restored a.txt as a (restored).txt: a file exists at its place again.' });
  });
});
