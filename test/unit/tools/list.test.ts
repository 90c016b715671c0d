import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { denyAll, makeSession, makeWorkspace, tempDir } from './toolTestContext';

describe('list', () => {
  test('two levels, sorted by name, with type and size; ignored entries and .git left out', async () => {
    const root = makeWorkspace({
      '.gitignore': 'dist/\n*.log\n',
      '.peonignore': 'private/\n',
      '.git/HEAD': 'ref\n',
      'b.txt': 'bb',
      'a.txt': 'a',
      'src/z.ts': 'zzz',
      'src/m.ts': 'm',
      'src/deep/x.ts': 'x',
      'dist/out.js': 'x',
      'debug.log': 'x',
      'private/notes.md': 'x',
    });
    fs.symlinkSync('a.txt', path.join(root, 'link'));
    const r = await makeSession(root).call('list', {});
    expect(r).toMatchObject({ ok: true, risk: 'read_only', permission: { decision: 'allow' } });
    expect(r.ok && r.output).toBe(
      ['.gitignore (12 bytes)', '.peonignore (9 bytes)', 'a.txt (1 bytes)', 'b.txt (2 bytes)', 'link (symlink)', 'src/', '  src/deep/', '  src/m.ts (1 bytes)', '  src/z.ts (3 bytes)'].join('\n'),
    );
    expect(r.ok && (r.data.entries as { path: string; type: string }[]).find((e) => e.path === 'link')).toMatchObject({ type: 'symlink' });
  });

  test('a subdirectory, by path', async () => {
    const root = makeWorkspace({ 'src/a.ts': 'a', 'src/lib/b.ts': 'b', 'other.txt': 'o' });
    const r = await makeSession(root).call('list', { path: 'src' });
    expect(r.ok && r.output).toBe('src/a.ts (1 bytes)\nsrc/lib/\n  src/lib/b.ts (1 bytes)');
  });

  test('nested .gitignore rules apply in their own directory, negation included', async () => {
    const root = makeWorkspace({ 'pkg/.gitignore': '*.gen.ts\n!keep.gen.ts\n', 'pkg/a.gen.ts': 'x', 'pkg/keep.gen.ts': 'x', 'pkg/b.ts': 'x' });
    const r = await makeSession(root).call('list', { path: 'pkg' });
    expect(r.ok && r.output).toBe('pkg/.gitignore (22 bytes)\npkg/b.ts (1 bytes)\npkg/keep.gen.ts (1 bytes)');
  });

  test('an empty directory says so; a file is not a directory; a missing one is not_found', async () => {
    const root = makeWorkspace({ 'f.txt': 'x' });
    fs.mkdirSync(path.join(root, 'empty'));
    const s = makeSession(root);
    const e = await s.call('list', { path: 'empty' });
    expect(e.ok && e.output).toBe('(empty is empty)');
    expect(await s.call('list', { path: 'f.txt' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await s.call('list', { path: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  test('outside the workspace it asks', async () => {
    const outside = tempDir();
    const root = makeWorkspace();
    expect(await makeSession(root, denyAll).call('list', { path: outside })).toMatchObject({ ok: false, permission: { decision: 'ask' } });
  });

  test('a long listing is cut with a note', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1100; i++) files[`many/f${String(i).padStart(4, '0')}.txt`] = '';
    const root = makeWorkspace(files);
    const r = await makeSession(root).call('list', { path: 'many' });
    expect(r.ok && r.data.truncated).toBe(true);
    expect(r.ok && (r.data.entries as unknown[]).length).toBe(1000);
    expect(r.ok && r.output.endsWith('(listing cut at 1000 entries: list a subdirectory or use glob for more)')).toBe(true);
  });
});
