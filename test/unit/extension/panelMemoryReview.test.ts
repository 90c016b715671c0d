// From a second hostile review: the panel's memory view over the real store.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, vi } from 'vitest';
import { MemoryStore, memoryStore } from '../../../src/core/memory/memoryStore';
import { PanelMemory, type MemoryFace } from '../../../src/extension/panelMemory';
import type { HostMessage } from '../../../src/shared/messages';
import { makeWorkspace } from '../tools/toolTestContext';

function panel(root: string) {
  const posted: HostMessage[] = [];
  const notices: string[] = [];
  const shown: string[] = [];
  const warnings: string[] = [];
  const face: MemoryFace = {
    store: () => memoryStore(root),
    enabled: () => true,
    notice: (level, text) => notices.push(`${level}: ${text}`),
    show: async (file) => void shown.push(file),
    confirmDelete: async () => true,
    offerUndo: async () => false,
    trusted: () => true,
    warn: (text) => warnings.push(text),
  };
  const lastList = () => (posted.filter((p) => p.type === 'memory').at(-1) as Extract<HostMessage, { type: 'memory' }>).entries;
  return { memory: new PanelMemory((m) => posted.push(m), face), notices, shown, warnings, lastList };
}

test('a curated file with a long name: its listed id is cut, so Open of what the view shows finds nothing, and two such ids collide (a keyed {#each} in MemoryView throws on duplicates)', async () => {
  const long = 'a'.repeat(120);
  const root = makeWorkspace({ [`.peon/memory/${long}-one.md`]: '# One\n\nfirst\n', [`.peon/memory/${long}-two.md`]: '# Two\n\nsecond\n' });
  const p = panel(root);
  p.memory.list();
  const ids = p.lastList().map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length); // duplicate keys crash MemoryView's keyed each
  await p.memory.open(ids[0]!);
  expect(p.shown).toHaveLength(1); // Open of a listed entry opens it
});

test('a committed observation citing one file thousands of times: one mem-read/list hashes it thousands of times (no MAX_CITED when read back, no hash reuse)', () => {
  const root = makeWorkspace({ 'assets/blob.bin': Buffer.alloc(64 * 1024, 7), '.peon/memory/observations/.keep': '' });
  const files = Array.from({ length: 3000 }, () => `  - path: assets/blob.bin\n    sha256: ${'0'.repeat(64)}`).join('\n');
  fs.writeFileSync(path.join(root, '.peon/memory/observations/obs-abcdef.md'), `---\nid: obs-abcdef\nkind: observation\nfiles:\n${files}\n---\n# Blob\n\nnote\n`);
  const store = new MemoryStore(root);
  const entry = store.get('obs-abcdef')!;
  const counting = vi.spyOn(fs, 'readSync');
  store.staleness(entry);
  store.staleness(entry);
  const reads = counting.mock.calls.length;
  counting.mockRestore();
  expect(entry.files).toHaveLength(1); // cited once, however often the header says so
  expect(reads).toBeLessThan(10); // and hashed once: the second check reuses the hash
});

test('two stores (the CLI and the panel) writing at once: index.md lists both entries', async () => {
  const root = makeWorkspace({ '.peon/memory/observations/.keep': '' });
  const cli = new MemoryStore(root);
  const panelStore = new MemoryStore(root);
  cli.list();
  panelStore.list();
  const [a, b] = await Promise.all([cli.remember('first note from the CLI'), panelStore.remember('second note from the panel')]);
  const index = fs.readFileSync(path.join(root, '.peon/memory/index.md'), 'utf8');
  expect(index).toContain(a.id);
  expect(index).toContain(b.id);
});

test('two remember() calls at once on the one store: both in index.md', async () => {
  const root = makeWorkspace({ '.peon/memory/observations/.keep': '' });
  const store = new MemoryStore(root);
  const [a, b] = await Promise.all([store.remember('first'), store.remember('second')]);
  const index = fs.readFileSync(path.join(root, '.peon/memory/index.md'), 'utf8');
  expect(index).toContain(a.id);
  expect(index).toContain(b.id);
});
