import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeSession, makeWorkspace } from './toolTestContext';

const hash = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const bytesOf = (root: string, name: string): Buffer => fs.readFileSync(path.join(root, name));

async function readThenEdit(files: Record<string, string | Buffer>, name: string, input: Record<string, unknown>) {
  const root = makeWorkspace(files);
  let diff = '';
  const s = makeSession(root, async (request) => {
    if (request.assessment.summary.kind === 'file-change') diff = request.assessment.summary.diff;
    return { approved: true };
  });
  await s.call('read', { path: name });
  return { root, result: await s.call('edit', { path: name, ...input }), diff };
}

describe('edit', () => {
  test('replaces one unique string; the card shows a unified diff of exactly that change', async () => {
    const text = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const { root, result, diff } = await readThenEdit({ 'x.txt': text }, 'x.txt', { oldString: 'e\n', newString: 'E\nE2\n' });
    expect(result).toMatchObject({ ok: true, data: { replacements: 1, sha256: hash('a\nb\nc\nd\nE\nE2\nf\ng\nh\n') } });
    expect(bytesOf(root, 'x.txt').toString()).toBe('a\nb\nc\nd\nE\nE2\nf\ng\nh\n');
    expect(diff).toBe('--- a/x.txt\n+++ b/x.txt\n@@ -2,7 +2,8 @@\n b\n c\n d\n-e\n+E\n+E2\n f\n g\n h');
  });

  test('without a read first: not_read', async () => {
    const root = makeWorkspace({ 'x.txt': 'a\n' });
    const r = await makeSession(root).call('edit', { path: 'x.txt', oldString: 'a', newString: 'b' });
    expect(r).toMatchObject({ ok: false, error: { code: 'not_read' } });
  });

  test('changed externally between read and edit: stale, nothing written', async () => {
    const root = makeWorkspace({ 'x.txt': 'a\n' });
    const s = makeSession(root);
    await s.call('read', { path: 'x.txt' });
    fs.writeFileSync(path.join(root, 'x.txt'), 'a\nexternal\n');
    expect(await s.call('edit', { path: 'x.txt', oldString: 'a', newString: 'b' })).toMatchObject({ ok: false, error: { code: 'stale' } });
    expect(bytesOf(root, 'x.txt').toString()).toBe('a\nexternal\n');
  });

  test('missing oldString: no_match; twice without replaceAll: multiple_matches with the count; the hash is unchanged', async () => {
    const text = 'x = 1\nx = 1\n';
    const none = await readThenEdit({ 'x.txt': text }, 'x.txt', { oldString: 'y = 2', newString: 'z' });
    expect(none.result).toMatchObject({ ok: false, error: { code: 'no_match', details: { count: 0 } } });
    const two = await readThenEdit({ 'x.txt': text }, 'x.txt', { oldString: 'x = 1', newString: 'x = 2' });
    expect(two.result).toMatchObject({ ok: false, error: { code: 'multiple_matches', details: { count: 2 } } });
    expect(two.result.ok === false && two.result.error.message).toContain('appears 2 times');
    expect(hash(bytesOf(two.root, 'x.txt'))).toBe(hash(text));
  });

  test('replaceAll replaces every occurrence', async () => {
    const { root, result } = await readThenEdit({ 'x.txt': 'x = 1\nx = 1\nx = 1\n' }, 'x.txt', { oldString: 'x = 1', newString: 'x = 2', replaceAll: true });
    expect(result).toMatchObject({ ok: true, data: { replacements: 3 } });
    expect(bytesOf(root, 'x.txt').toString()).toBe('x = 2\nx = 2\nx = 2\n');
  });

  test('BOM + CRLF + no final newline all survive, also when the edit is written with LF', async () => {
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\r\nthree')]);
    const { root, result } = await readThenEdit({ 'w.txt': original }, 'w.txt', { oldString: 'one\ntwo', newString: 'uno\ndos' });
    expect(result.ok).toBe(true);
    expect(bytesOf(root, 'w.txt')).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('uno\r\ndos\r\nthree')]));
  });

  test('Latin-1 bytes: refused as not UTF-8, bytes untouched', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const { root, result } = await readThenEdit({ 'l.txt': latin1 }, 'l.txt', { oldString: 'caf', newString: 'CAF' });
    expect(result).toMatchObject({ ok: false, error: { code: 'not_utf8' } });
    expect(bytesOf(root, 'l.txt')).toEqual(latin1);
  });

  test('multi-byte text around the match is byte-identical', async () => {
    const { root, result } = await readThenEdit({ 'u.txt': 'café → 東京\nnaïve\n' }, 'u.txt', { oldString: '→', newString: '⇒' });
    expect(result.ok).toBe(true);
    expect(bytesOf(root, 'u.txt').toString()).toBe('café ⇒ 東京\nnaïve\n');
  });

  test('the mode of the file is kept; the snapshot follows the edit so a second edit works', async () => {
    const root = makeWorkspace({ 'run.sh': '#!/bin/sh\necho 1\n' });
    fs.chmodSync(path.join(root, 'run.sh'), 0o700);
    const s = makeSession(root);
    await s.call('read', { path: 'run.sh' });
    expect((await s.call('edit', { path: 'run.sh', oldString: 'echo 1', newString: 'echo 2' })).ok).toBe(true);
    expect((await s.call('edit', { path: 'run.sh', oldString: 'echo 2', newString: 'echo 3' })).ok).toBe(true);
    expect(fs.statSync(path.join(root, 'run.sh')).mode & 0o7777).toBe(0o700);
    expect(bytesOf(root, 'run.sh').toString()).toBe('#!/bin/sh\necho 3\n');
  });

  test.each([
    [{ oldString: '', newString: 'x' }],
    [{ oldString: 'a', newString: 'a' }],
    [{ oldString: 'a' }],
    [{ oldString: 'a', newString: 'b', replaceAll: 'yes' }],
  ])('invalid input %j', async (input) => {
    const { result } = await readThenEdit({ 'x.txt': 'a\n' }, 'x.txt', input);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  test('old_string / new_string are accepted as aliases', async () => {
    const { root, result } = await readThenEdit({ 'x.txt': 'a\n' }, 'x.txt', { old_string: 'a', new_string: 'b' });
    expect(result.ok).toBe(true);
    expect(bytesOf(root, 'x.txt').toString()).toBe('b\n');
  });

  test('a change while the card is pending makes the edit stale', async () => {
    const root = makeWorkspace({ 'x.txt': 'a\n' });
    const s = makeSession(root, async () => {
      fs.writeFileSync(path.join(root, 'x.txt'), 'a\nb\n');
      return { approved: true };
    });
    await s.call('read', { path: 'x.txt' });
    expect(await s.call('edit', { path: 'x.txt', oldString: 'a', newString: 'z' })).toMatchObject({ ok: false, error: { code: 'stale' } });
    expect(bytesOf(root, 'x.txt').toString()).toBe('a\nb\n');
  });
});

test('replaceAll with nearby matches: one hunk covering both, a valid unified diff', async () => {
  const text = 'a\nx\nb\nx\nc\n';
  const { result, diff } = await readThenEdit({ 'n.txt': text }, 'n.txt', { oldString: 'x', newString: 'y', replaceAll: true });
  expect(result.ok).toBe(true);
  expect(diff).toBe('--- a/n.txt\n+++ b/n.txt\n@@ -1,5 +1,5 @@\n a\n-x\n+y\n b\n-x\n+y\n c');
});

test('matches far apart get their own hunks, with the right line numbers', async () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
  lines[4] = 'target';
  lines[24] = 'target';
  const { diff } = await readThenEdit({ 'f.txt': `${lines.join('\n')}\n` }, 'f.txt', { oldString: 'target', newString: 'hit', replaceAll: true });
  expect(diff.split('\n').filter((l) => l.startsWith('@@'))).toEqual(['@@ -2,7 +2,7 @@', '@@ -22,7 +22,7 @@']);
});
