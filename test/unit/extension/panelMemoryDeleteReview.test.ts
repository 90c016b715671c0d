// What held: Delete re-resolves after the modal; a file or folder swapped for a link meanwhile is not followed.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { MemoryStore } from '../../../src/core/memory/memoryStore';
import { PanelMemory } from '../../../src/extension/panelMemory';
import { makeWorkspace, tempDir } from '../tools/toolTestContext';

test('observations folder swapped for a link out while the modal is open: nothing outside is deleted', async () => {
  const root = makeWorkspace({ '.peon/memory/observations/.keep': '' });
  const store = new MemoryStore(root);
  const entry = await store.remember('note');
  const outside = tempDir('peon-out-');
  fs.writeFileSync(path.join(outside, `${entry.id}.md`), 'precious');
  const memory = new PanelMemory(() => {}, {
    store: () => store, enabled: () => true, notice: () => {}, show: async () => {}, warn: () => {},
    offerUndo: async () => false,
    trusted: () => true,
    confirmDelete: async () => {
      fs.renameSync(path.join(root, '.peon/memory/observations'), path.join(root, 'moved'));
      fs.symlinkSync(outside, path.join(root, '.peon/memory/observations'));
      return true;
    },
  });
  await memory.delete(entry.id);
  expect(fs.readFileSync(path.join(outside, `${entry.id}.md`), 'utf8')).toBe('precious');
});

test('observation file swapped for a link to a workspace file while the modal is open: only the link goes', async () => {
  const root = makeWorkspace({ 'src/main.ts': 'main\n', '.peon/memory/observations/.keep': '' });
  const store = new MemoryStore(root);
  const entry = await store.remember('note');
  const file = path.join(root, entry.file);
  const memory = new PanelMemory(() => {}, {
    store: () => store, enabled: () => true, notice: () => {}, show: async () => {}, warn: () => {},
    confirmDelete: async () => (fs.rmSync(file), fs.symlinkSync('../../../src/main.ts', file), true),
    offerUndo: async () => false,
    trusted: () => true,
  });
  await memory.delete(entry.id);
  expect(fs.readFileSync(path.join(root, 'src/main.ts'), 'utf8')).toBe('main\n');
});
