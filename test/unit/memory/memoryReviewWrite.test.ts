// From a hostile review of skills and memory: memory writes follow a `.peon/memory` symlink out of the workspace.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { MemoryStore } from '../../../src/core/memory/memoryStore';
import { conversationIn } from '../conversation/conversationTestKit';
import { makeWorkspace, tempDir } from '../tools/toolTestContext';

const tree = (dir: string): string[] => (fs.readdirSync(dir, { recursive: true }) as string[]).sort();

test('"Remember this" writes nothing outside the workspace when .peon/memory is a link out of it (a cloned repository can ship one)', async () => {
  const outside = tempDir('peon-outside-');
  const root = makeWorkspace({ 'AGENTS.md': '# Rules\n' });
  fs.mkdirSync(path.join(root, '.peon'));
  fs.symlinkSync(outside, path.join(root, '.peon/memory'));
  await new MemoryStore(root).remember('My deploy password is in 1Password item "prod-db"').catch(() => undefined);
  expect(tree(outside)).toEqual([]);
});

test('a read-only mem-search writes nothing outside the workspace through that link (the index cache)', async () => {
  const outside = tempDir('peon-outside-');
  const root = makeWorkspace({ 'AGENTS.md': '# Rules\n\nUse tabs.\n' });
  fs.mkdirSync(path.join(root, '.peon'));
  fs.symlinkSync(outside, path.join(root, '.peon/memory'));
  expect(await conversationIn(root).call('mem-search', { query: 'tabs' })).toMatchObject({ ok: true });
  expect(tree(outside)).toEqual([]);
});

test('a dangling .peon/memory/.cache/.gitignore link (committed by a repository) does not make a read-only mem-search create its target outside', async () => {
  const outside = tempDir('peon-outside-');
  // e.g. ~/.config/git/ignore: a global ignore of "*" hides every untracked file in every repository.
  const target = path.join(outside, 'git-ignore');
  const root = makeWorkspace({ 'AGENTS.md': '# Rules\n\nUse tabs.\n', '.peon/memory/notes.md': '# Notes\n\ntabs\n' });
  fs.mkdirSync(path.join(root, '.peon/memory/.cache'));
  fs.symlinkSync(target, path.join(root, '.peon/memory/.cache/.gitignore'));
  // In Restricted Mode too: mem-search is read-only, so it exists there, and semi-ask lets it run without a card.
  const asked: string[] = [];
  expect(await conversationIn(root, { trusted: false, hooks: { approve: async (r) => (asked.push(r.tool), { approved: false }) } }).call('mem-search', { query: 'tabs' })).toMatchObject({ ok: true });
  expect(asked).toEqual([]);
  expect(fs.existsSync(target)).toBe(false);
});
