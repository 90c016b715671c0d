// The panel's memory (issue 14) over the real store in a temp workspace: "Remember
// this" writes an observation citing the files the message names, the view lists it
// (stale once a cited file changes), Open shows its file, Delete asks first and never
// touches a curated file, and an id that is not an entry is refused.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { memoryStore } from '../../../src/core/memory/memoryStore';
import { PanelMemory, type MemoryFace } from '../../../src/extension/panelMemory';
import { parseHostMessage, type HostMessage } from '../../../src/shared/messages';
import { makeWorkspace } from '../tools/toolTestContext';

function panel(files: Record<string, string> = {}, options: { enabled?: boolean; confirm?: boolean; folder?: boolean; undo?: boolean; trusted?: boolean } = {}) {
  const root = makeWorkspace(files);
  const posted: HostMessage[] = [];
  const notices: string[] = [];
  const shown: string[] = [];
  const asked: string[] = [];
  const warnings: string[] = [];
  const face: MemoryFace = {
    store: () => (options.folder === false ? undefined : memoryStore(root)),
    enabled: () => options.enabled ?? true,
    notice: (level, text) => notices.push(`${level}: ${text}`),
    show: async (file) => void shown.push(file),
    confirmDelete: async (entry) => (asked.push(entry.id), options.confirm ?? true),
    offerUndo: async () => options.undo ?? false,
    trusted: () => options.trusted ?? true,
    warn: (text) => warnings.push(text),
  };
  const lastList = () => {
    const m = posted.filter((p) => p.type === 'memory').at(-1) as Extract<HostMessage, { type: 'memory' }>;
    expect(parseHostMessage(m).ok).toBe(true);
    return m;
  };
  return { root, memory: new PanelMemory((m) => posted.push(m), face), notices, shown, asked, warnings, lastList };
}

test('Remember this: an observation of the message, citing the files it names; listed, stale once one changes', async () => {
  const p = panel({ 'src/app.ts': 'export const app = 1;\n' });
  await p.memory.remember('Use `src/app.ts` for the entry point\n\nIt exports app.');
  const [entry] = memoryStore(p.root).list();
  expect(entry).toMatchObject({ kind: 'observation', title: 'Use src/app.ts for the entry point', files: [{ path: 'src/app.ts' }] });
  expect(entry!.id).toMatch(/^obs-[0-9a-f]{6}$/);
  expect(fs.existsSync(path.join(p.root, '.peon/memory/observations', `${entry!.id}.md`))).toBe(true);
  expect(p.notices).toEqual([`info: Remembered as ${entry!.id}: Use src/app.ts for the entry point`]);
  expect(p.lastList()).toEqual({ type: 'memory', enabled: true, entries: [{ id: entry!.id, kind: 'observation', title: entry!.title, file: `.peon/memory/observations/${entry!.id}.md`, created: entry!.created, stale: false }] });
  fs.writeFileSync(path.join(p.root, 'src/app.ts'), 'export const app = 2;\n');
  p.memory.list();
  expect(p.lastList().entries[0]).toMatchObject({ id: entry!.id, stale: true });
});

test('memory off, no folder, or an entry that is not a message: nothing is written, and the person is told', async () => {
  const off = panel({}, { enabled: false });
  await off.memory.remember('keep this');
  expect(off.notices).toEqual(['warning: Memory is off (peon.memory.enabled), so nothing was remembered.']);
  expect(fs.existsSync(path.join(off.root, '.peon/memory'))).toBe(false);
  off.memory.list();
  expect(off.lastList()).toMatchObject({ enabled: false, entries: [] });

  const none = panel({}, { folder: false });
  await none.memory.remember('keep this');
  expect(none.notices).toEqual(['error: Open a folder first: memory is kept in the workspace (.peon/memory).']);

  const notMessage = panel();
  await notMessage.memory.remember(undefined);
  expect(notMessage.notices).toEqual([]);
  expect(notMessage.warnings).toEqual(['Ignored "Remember this" for an entry that is not a message of this chat.']);
});

test('Open shows the entry\'s file; Delete asks first, and removes it only when confirmed', async () => {
  const p = panel({}, { confirm: false });
  await p.memory.remember('Deploys go through make release');
  const id = memoryStore(p.root).list()[0]!.id;
  const file = path.join(p.root, '.peon/memory/observations', `${id}.md`);
  await p.memory.open(id);
  expect(p.shown).toEqual([file]);
  await p.memory.delete(id);
  expect(p.asked).toEqual([id]);
  expect(fs.existsSync(file)).toBe(true);

  const yes = panel();
  await yes.memory.remember('Deploys go through make release');
  const gone = memoryStore(yes.root).list()[0]!.id;
  await yes.memory.delete(gone);
  expect(yes.asked).toEqual([gone]);
  expect(fs.existsSync(path.join(yes.root, '.peon/memory/observations', `${gone}.md`))).toBe(false);
  expect(yes.notices.at(-1)).toBe(`info: Deleted ${gone} from memory: Deploys go through make release`);
  expect(yes.lastList().entries).toEqual([]);
  expect(fs.readFileSync(path.join(yes.root, '.peon/memory/index.md'), 'utf8')).not.toContain(gone);
});

test('a curated file is listed and opens, but is never deleted (not even asked); an unknown id is refused', async () => {
  const p = panel({ 'AGENTS.md': '# Team notes\n\nUse pnpm.\n' });
  p.memory.list();
  expect(p.lastList().entries).toEqual([{ id: 'cur-agents-md', kind: 'curated', title: 'Team notes', file: 'AGENTS.md', stale: false }]);
  await p.memory.delete('cur-agents-md');
  expect(p.asked).toEqual([]);
  expect(fs.readFileSync(path.join(p.root, 'AGENTS.md'), 'utf8')).toBe('# Team notes\n\nUse pnpm.\n');
  expect(p.notices).toEqual(['warning: cur-agents-md is the curated file AGENTS.md: Peon does not delete it. Edit or delete it yourself.']);
  await p.memory.open('cur-agents-md');
  expect(p.shown).toEqual([path.join(p.root, 'AGENTS.md')]);

  for (const id of ['../AGENTS.md', 'obs-000000', '/etc/passwd']) {
    await p.memory.open(id);
    await p.memory.delete(id);
  }
  expect(p.shown).toHaveLength(1);
  expect(p.asked).toEqual([]);
  expect(p.warnings).toHaveLength(6);
  expect(p.warnings[0]).toBe('Ignored a request for the memory entry "../AGENTS.md": there is no such entry.');
});

test('a deleted entry can be put back, byte for byte, from the notice that says it was deleted', async () => {
  const p = panel({ 'src/app.ts': 'export {};\n' }, { undo: true });
  await p.memory.remember('Keep `src/app.ts` small');
  const [entry] = memoryStore(p.root).list();
  const file = path.join(p.root, '.peon/memory/observations', `${entry!.id}.md`);
  const before = fs.readFileSync(file);
  await p.memory.delete(entry!.id);
  expect(fs.readFileSync(file)).toEqual(before);
  expect(p.notices.slice(-2)).toEqual([expect.stringMatching(/^info: Deleted obs-/), `info: Put ${entry!.id} back in memory.`]);
  expect(fs.readFileSync(path.join(p.root, '.peon/memory/index.md'), 'utf8')).toContain(entry!.id);
});

test('a restricted workspace: the view lists its memory, and saves no index into it', () => {
  const p = panel({ '.peon/memory/notes.md': '# Notes\n\nTest first.\n' }, { trusted: false });
  p.memory.list();
  expect(p.lastList().entries.map((e) => e.id)).toEqual(['cur-notes']);
  expect(fs.existsSync(path.join(p.root, '.peon/memory/.cache'))).toBe(false);
});
