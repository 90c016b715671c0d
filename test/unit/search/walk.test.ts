import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { comparePaths, walkFiles } from '../../../src/core/search/walk';
import { IgnoreRules } from '../../../src/core/workspace/ignoreRules';
import { makeWorkspace } from '../tools/toolTestContext';

const walk = async (root: string, start = '', ignore = new IgnoreRules(root)): Promise<string[]> => {
  const out: string[] = [];
  for await (const file of walkFiles({ root, start, ignore })) out.push(file);
  return out;
};

describe('walkFiles', () => {
  test("lists regular files depth first in ripgrep's --sort path order, hidden ones included, .git skipped", async () => {
    const root = makeWorkspace({ 'a-c': '', 'a/b': '', 'a b/x': '', 'a.txt': '', '.hidden/h': '', '.git/config': '', 'sub/.git': 'gitdir: x', B: '' });
    expect(await walk(root)).toEqual(['.hidden/h', 'B', 'a/b', 'a b/x', 'a-c', 'a.txt']);
    expect([...(await walk(root))].sort(comparePaths)).toEqual(await walk(root));
  });

  test('applies nested ignore rules while descending, and starts below the root', async () => {
    const root = makeWorkspace({ '.gitignore': 'out/\n*.log\n', 'src/.peonignore': '!keep.log\nsecret/\n', 'src/a.log': '', 'src/keep.log': '', 'src/secret/s': '', 'src/x.ts': '', 'out/o.js': '' });
    expect(await walk(root)).toEqual(['.gitignore', 'src/.peonignore', 'src/keep.log', 'src/x.ts']);
    expect(await walk(root, 'src')).toEqual(['src/.peonignore', 'src/keep.log', 'src/x.ts']);
  });

  test('never follows symlinks, so a loop ends; stops when the caller stops', async () => {
    const root = makeWorkspace({ 'd/f': '' });
    fs.symlinkSync('..', path.join(root, 'd', 'up'));
    fs.symlinkSync('d/f', path.join(root, 'link'));
    expect(await walk(root)).toEqual(['d/f']);
    const many = makeWorkspace(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, ''])));
    let seen = 0;
    for await (const _file of walkFiles({ root: many, ignore: new IgnoreRules(many) })) if (++seen === 3) break;
    expect(seen).toBe(3);
  });

  test('honours an aborted signal', async () => {
    const root = makeWorkspace({ a: '' });
    const controller = new AbortController();
    controller.abort();
    await expect(walkFiles({ root, ignore: new IgnoreRules(root), signal: controller.signal }).next()).rejects.toMatchObject({ name: 'AbortError' });
  });
});

test('forDirectory gives the verdicts of IgnoreRules.isIgnored', () => {
  const root = makeWorkspace({ '.gitignore': '*.tmp\n!/a/keep.tmp\nbuild\n', 'a/.gitignore': '!x.tmp\n/y\n', 'a/b/.peonignore': '*.md\n!r.md\n' });
  const ignore = new IgnoreRules(root);
  for (const dir of ['', 'a', 'a/b', 'a/b/c']) {
    const check = ignore.forDirectory(dir);
    for (const name of ['x.tmp', 'keep.tmp', 'z.tmp', 'build', 'y', 'r.md', 'q.md', '.git', 'plain']) {
      for (const isDir of [false, true]) expect(check(name, isDir), `${dir}/${name} ${isDir}`).toBe(ignore.isIgnored(dir === '' ? name : `${dir}/${name}`, isDir));
    }
  }
});
