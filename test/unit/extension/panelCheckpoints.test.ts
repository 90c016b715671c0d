// The panel's checkpoints (src/extension/panelCheckpoints.ts) over a real conversation,
// the scripted model server and real files: a command's card lists what it changed, the
// turn's list too; a file's diff opens before ↔ after; Revert this step and the turn's
// Revert put files back and mark them on every card; Keep dismisses; a file the person
// changed since is asked about with its versions, Keep mine leaves it; after a resume the
// saved steps revert still; restoring to a message reverts every step after it.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import type { Step } from '../../../src/core/checkpoints/checkpoints';
import { fileDiff } from '../../../src/core/tools/fileDiff';
import { relativeNames } from '../../../src/extension/changedFiles';
import { PanelCheckpoints, type DiffSide } from '../../../src/extension/panelCheckpoints';
import { Transcript } from '../../../src/extension/transcript';
import type { HostMessage, TranscriptEntry, WebviewMessage } from '../../../src/shared/messages';
import { conversationIn } from '../conversation/conversationTestKit';
import { call, say, scriptedModel } from '../conversation/subagentTestKit';
import { makeWorkspace, tempDir } from '../tools/toolTestContext';

const model = scriptedModel();

/** A chat as the panel holds one: its transcript, its checkpoints, what was posted, saved and opened. */
function chat(root: string, store = tempDir('peon-pc-store-'), saved: Step[] = []) {
  const conversation = conversationIn(root, { extra: { checkpoints: { dir: store, waitForFirstScan: true } } });
  const posted: HostMessage[] = [];
  const transcript = new Transcript((m) => posted.push(m));
  const diffs: { left: DiffSide; right: DiffSide; title: string }[] = [];
  const notices: string[] = [];
  const checkpoints = new PanelCheckpoints({
    checkpoints: () => conversation.checkpoints,
    post: (m) => posted.push(m),
    transcript,
    names: relativeNames,
    save: (step) => saved.push(step),
    openDiff: async (left, right, title) => void diffs.push({ left, right, title }),
    diff: fileDiff,
    notice: (_level, text) => notices.push(text),
    trashDir: tempDir('peon-pc-trash-'),
  });
  /** The person sends `text`: one turn, as chatViewProvider runs it. */
  const send = async (text: string): Promise<string> => {
    const entry = transcript.append({ kind: 'user', text });
    checkpoints.turnStarted();
    await conversation.turn(text, model.client(), (e) => {
      transcript.apply(e);
      if (e.type === 'tool_result') checkpoints.sync();
    });
    checkpoints.turnEnded();
    return entry;
  };
  /** A webview message, dispatched to its handler; resolves when the host has done its work (what it posts or writes). */
  const click = async (message: WebviewMessage & { type: keyof PanelCheckpoints['handlers'] }, until: () => boolean): Promise<void> => {
    (checkpoints.handlers[message.type] as (m: typeof message) => void)(message);
    await expect.poll(until, { timeout: 10_000 }).toBe(true);
  };
  return { conversation, transcript, checkpoints, posted, diffs, notices, saved, send, click, store };
}

const read = (root: string, file: string): string | undefined => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : undefined);
const cards = (entries: TranscriptEntry[]) => entries.filter((e): e is Extract<TranscriptEntry, { kind: 'tool' }> => e.kind === 'tool');
const turnList = (entries: TranscriptEntry[]) => entries.find((e): e is Extract<TranscriptEntry, { kind: 'changes' }> => e.kind === 'changes');

test("a command's card and the turn's list name what it created, modified and deleted; a file's diff opens; Revert this step puts them back, marked on both", async () => {
  const root = makeWorkspace({ 'edit.txt': 'one\n', 'gone.txt': 'bye\n', 'keep.txt': 'same\n' });
  const c = chat(root);
  model.server.script(call('bash', { command: 'echo new > made.txt; echo ONE > edit.txt; rm gone.txt' }), say('Done.'));
  await c.send('change the files');

  const card = cards(c.transcript.entries)[0]!;
  expect(card.changes?.summary).toBe('created 1 file, changed 1, deleted 1');
  expect(card.changes?.files).toEqual([
    { path: 'edit.txt', kind: 'modified', restorable: true },
    { path: 'gone.txt', kind: 'deleted', restorable: true },
    { path: 'made.txt', kind: 'created', restorable: true },
  ]);
  const list = turnList(c.transcript.entries)!;
  expect(list.files.map((f) => `${f.kind} ${f.path}`)).toEqual(['modified edit.txt', 'deleted gone.txt', 'created made.txt']);
  expect(list.steps).toEqual([card.changes!.step]);
  expect(c.saved.map((s) => s.id)).toEqual([card.changes!.step]);

  // The diff: the step's before and after, served from what the checkpoints kept.
  await c.click({ type: 'openChange', target: { step: card.changes!.step }, path: 'edit.txt' }, () => c.diffs.length === 1);
  const { left, right, title } = c.diffs[0]!;
  expect(title).toBe('edit.txt (before ↔ after the step)');
  expect(left.kind === 'stored' && c.checkpoints.stored(left.step, left.index, left.side)).toBe('one\n');
  expect(right.kind === 'stored' && c.checkpoints.stored(right.step, right.index, right.side)).toBe('ONE\n');
  await c.click({ type: 'openChange', target: { turn: list.id }, path: 'made.txt' }, () => c.diffs.length === 2);
  expect(c.diffs[1]!.left).toEqual({ kind: 'empty', name: 'made.txt' });
  expect(c.diffs[1]!.title).toBe('made.txt (before ↔ after the turn)');

  // Clicked twice: the second finds the first one's work done (no conflict with itself).
  c.checkpoints.handlers.revertChanges({ type: 'revertChanges', target: { step: card.changes!.step } });
  await c.click({ type: 'revertChanges', target: { step: card.changes!.step } }, () => read(root, 'made.txt') === undefined);
  await c.checkpoints.restoreToMessage('none'); // queued after both: they are done
  expect([read(root, 'edit.txt'), read(root, 'gone.txt'), read(root, 'keep.txt')]).toEqual(['one\n', 'bye\n', 'same\n']);
  expect(c.posted.filter((m) => m.type === 'revertConflict')).toEqual([]);
  expect(card.changes!.files.map((f) => f.state)).toEqual(['reverted', 'reverted', 'reverted']);
  expect(list.files.map((f) => f.state)).toEqual(['reverted', 'reverted', 'reverted']);
  expect(c.posted.filter((m) => m.type === 'changeFiles').map((m) => m.type === 'changeFiles' && m.id).sort()).toEqual([card.id, list.id].sort());
  expect(c.notices).toEqual([]);
});

test("the turn's list reverts one file across its steps, Keep dismisses one; a file you changed since asks with its versions: Keep mine leaves it, Restore anyway writes", async () => {
  const root = makeWorkspace({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'c.txt': 'c0\n' });
  const c = chat(root);
  model.server.script(call('bash', { command: 'echo a1 > a.txt; echo b1 > b.txt; echo c1 > c.txt' }), call('write', { path: 'a.txt', content: 'a2\n' }), say('Done.'));
  await c.send('change them');
  const [bash, write] = cards(c.transcript.entries);
  expect(write!.changes?.files).toEqual([{ path: 'a.txt', kind: 'modified', restorable: true }]);
  const list = turnList(c.transcript.entries)!;
  expect(list.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt', 'c.txt']);

  await c.click({ type: 'revertChanges', target: { turn: list.id }, paths: ['a.txt'] }, () => read(root, 'a.txt') === 'a0\n');
  expect(list.files.map((f) => f.state)).toEqual(['reverted', undefined, undefined]);
  expect(bash!.changes!.files.map((f) => f.state)).toEqual(['reverted', undefined, undefined]);
  expect(write!.changes!.files.map((f) => f.state)).toEqual(['reverted']);

  await c.click({ type: 'keepChanges', turn: list.id, paths: ['b.txt'] }, () => list.files[1]!.state === 'kept');
  expect(read(root, 'b.txt')).toBe('b1\n');

  fs.writeFileSync(path.join(root, 'c.txt'), 'mine\n');
  await c.click({ type: 'revertChanges', target: { turn: list.id } }, () => c.posted.some((m) => m.type === 'revertConflict'));
  const asked = c.posted.find((m) => m.type === 'revertConflict');
  if (asked?.type !== 'revertConflict') throw new Error('no conflict card');
  expect(asked.conflict.action).toBe('Revert the turn');
  expect(asked.conflict.files.map((f) => [f.path, f.now])).toEqual([['c.txt', 'changed']]);
  expect(asked.conflict.files[0]!.since).toContain('-c1\n+mine');
  expect(asked.conflict.files[0]!.restore).toContain('-mine\n+c0');
  // Kept as listed (b.txt) stays as it is; nothing of c.txt was written.
  expect([read(root, 'b.txt'), read(root, 'c.txt')]).toEqual(['b1\n', 'mine\n']);

  await c.click({ type: 'openConflict', id: asked.conflict.id, path: 'c.txt', compare: 'since' }, () => c.diffs.length === 1);
  expect(c.diffs[0]!.right).toEqual({ kind: 'file', path: path.join(root, 'c.txt') });
  expect(c.diffs[0]!.title).toBe("c.txt (Peon's version ↔ now)");
  await c.click({ type: 'resolveConflict', id: asked.conflict.id, path: 'c.txt', choice: 'keep' }, () => c.posted.some((m) => m.type === 'revertConflictSettled'));
  expect(read(root, 'c.txt')).toBe('mine\n');
  expect(list.files[2]!.state).toBeUndefined();

  const conflicts = () => c.posted.filter((m) => m.type === 'revertConflict');
  await c.click({ type: 'revertChanges', target: { turn: list.id }, paths: ['c.txt'] }, () => conflicts().length === 2);
  const again = conflicts()[1]!;
  if (again.type !== 'revertConflict') throw new Error('no conflict card');
  await c.click({ type: 'resolveConflict', id: again.conflict.id, path: 'c.txt', choice: 'restore' }, () => read(root, 'c.txt') === 'c0\n');
  expect(list.files.map((f) => f.state)).toEqual(['reverted', 'kept', 'reverted']);
});

test('a resumed chat reverts the steps it saved (a new conversation, its transcript restored); restoring to a message reverts every step after it', async () => {
  const root = makeWorkspace({ 'x.txt': 'x0\n' });
  const store = tempDir('peon-pc-store-');
  const saved: Step[] = [];
  const first = chat(root, store, saved);
  model.server.script(call('bash', { command: 'echo x1 > x.txt' }), say('One.'), call('bash', { command: 'echo x2 > x.txt; echo y > y.txt' }), say('Two.'));
  const one = await first.send('first');
  await first.send('second');
  expect(first.checkpoints.filesSince(one)).toBe(2);
  first.conversation.stop();

  // The session as saved: the panel's messages (view) and the steps, read back into a new chat.
  const resumed = chat(root, store);
  resumed.transcript.restore(first.posted);
  resumed.checkpoints.load(saved);
  const restoredOne = resumed.transcript.entries.find((e) => e.kind === 'user' && e.text === 'first')!.id;
  expect(resumed.checkpoints.filesSince(restoredOne)).toBe(2);
  const [lastList] = resumed.transcript.entries.filter((e) => e.kind === 'changes').reverse();
  await resumed.click({ type: 'revertChanges', target: { turn: lastList!.id }, paths: ['y.txt'] }, () => read(root, 'y.txt') === undefined);
  expect(resumed.checkpoints.filesSince(restoredOne)).toBe(1);

  await resumed.checkpoints.restoreToMessage(restoredOne);
  expect(read(root, 'x.txt')).toBe('x0\n');
  expect(resumed.checkpoints.filesSince(restoredOne)).toBe(0);
  expect(resumed.notices).toEqual([]);
  // The marks were posted as messages: a chat restored from them shows the same states.
  const again = new Transcript(() => {});
  again.restore([...first.posted, ...resumed.posted.filter((m) => m.type === 'changeFiles')]);
  expect(again.entries.filter((e) => e.kind === 'changes').flatMap((e) => (e.kind === 'changes' ? e.files.map((f) => f.state) : []))).toEqual(['reverted', 'reverted', 'reverted']);
});
