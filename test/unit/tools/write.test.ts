import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { denyAll, makeSession, makeWorkspace, tempDir } from './toolTestContext';

const hash = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const leftovers = (dir: string): string[] => fs.readdirSync(dir).filter((n) => n.includes('.peon-'));

describe('write', () => {
  test('creates a file and its parent directories; the card shows the diff', async () => {
    const root = makeWorkspace();
    let card: unknown;
    const s = makeSession(root, async (request) => ((card = request.assessment.summary), { approved: true }));
    const r = await s.call('write', { path: 'src/new/a.ts', content: 'export const a = 1;\n' });
    expect(r).toMatchObject({ ok: true, risk: 'filesystem', permission: { decision: 'ask', answer: 'approved', reasons: ['it changes files'] } });
    expect(fs.readFileSync(path.join(root, 'src/new/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(r.ok && r.data).toEqual({ path: 'src/new/a.ts', sha256: hash('export const a = 1;\n'), bytes: 20, created: true });
    expect(card).toEqual({
      kind: 'file-change',
      path: 'src/new/a.ts',
      operation: 'create',
      diff: '--- /dev/null\n+++ b/src/new/a.ts\n@@ -0,0 +1,1 @@\n+export const a = 1;',
      reasons: [],
    });
  });

  test('a denied write changes nothing', async () => {
    const root = makeWorkspace({ 'a.txt': 'old\n' });
    const r = await makeSession(root, denyAll).call('write', { path: 'a.txt', content: 'new\n' });
    expect(r).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('old\n');
  });

  test('mode create refuses an existing file; mode replace refuses a missing one', async () => {
    const root = makeWorkspace({ 'a.txt': 'old\n' });
    const s = makeSession(root);
    expect(await s.call('write', { path: 'a.txt', content: 'x', mode: 'create' })).toMatchObject({ ok: false, error: { code: 'already_exists' } });
    expect(await s.call('write', { path: 'b.txt', content: 'x', mode: 'replace' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('old\n');
    expect(fs.existsSync(path.join(root, 'b.txt'))).toBe(false);
  });

  test('expected_sha256 must match the file right before the write, else stale with the current hash', async () => {
    const root = makeWorkspace({ 'a.txt': 'old\n' });
    const s = makeSession(root);
    const wrong = '0'.repeat(64);
    expect(await s.call('write', { path: 'a.txt', content: 'new\n', expected_sha256: wrong })).toMatchObject({
      ok: false,
      error: { code: 'stale', details: { currentSha256: hash('old\n') } },
    });
    expect((await s.call('write', { path: 'a.txt', content: 'new\n', expected_sha256: hash('old\n') })).ok).toBe(true);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('new\n');
    expect(await s.call('write', { path: 'a.txt', content: 'x', expected_sha256: 'abc' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  test('without expected_sha256, a file changed since this session read it is stale', async () => {
    const root = makeWorkspace({ 'a.txt': 'v1\n' });
    const s = makeSession(root);
    await s.call('read', { path: 'a.txt' });
    fs.writeFileSync(path.join(root, 'a.txt'), 'v2 from another editor\n');
    expect(await s.call('write', { path: 'a.txt', content: 'mine\n' })).toMatchObject({ ok: false, error: { code: 'stale' } });
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('v2 from another editor\n');
  });

  test('a file changed while the card was pending is stale: what was approved is what is written', async () => {
    const root = makeWorkspace({ 'a.txt': 'v1\n' });
    const s = makeSession(root, async () => {
      fs.writeFileSync(path.join(root, 'a.txt'), 'changed during approval\n');
      return { approved: true };
    });
    expect(await s.call('write', { path: 'a.txt', content: 'mine\n' })).toMatchObject({ ok: false, error: { code: 'stale' } });
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('changed during approval\n');
  });

  test('an executable script overwritten keeps its mode', async () => {
    const root = makeWorkspace({ 'run.sh': '#!/bin/sh\necho 1\n' });
    fs.chmodSync(path.join(root, 'run.sh'), 0o751);
    const r = await makeSession(root).call('write', { path: 'run.sh', content: '#!/bin/sh\necho 2\n' });
    expect(r.ok).toBe(true);
    expect(fs.statSync(path.join(root, 'run.sh')).mode & 0o7777).toBe(0o751);
  });

  const isRoot = process.getuid?.() === 0;

  test.runIf(!isRoot)('EACCES during the write leaves the original intact and no temp file behind', async () => {
    const root = makeWorkspace({ 'ro/a.txt': 'original\n' });
    fs.chmodSync(path.join(root, 'ro'), 0o555);
    const r = await makeSession(root).call('write', { path: 'ro/a.txt', content: 'new\n' });
    fs.chmodSync(path.join(root, 'ro'), 0o755);
    expect(r).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(fs.readFileSync(path.join(root, 'ro/a.txt'), 'utf8')).toBe('original\n');
    expect(leftovers(path.join(root, 'ro'))).toEqual([]);
  });

  // A real full file system: a 64 KiB tmpfs (mounting needs root, which CI is; as another
  // user, test/unit/cli.test.ts covers EACCES through the CLI run as an unprivileged user).
  test.runIf(isRoot)('ENOSPC during the write leaves the original intact and removes the temp file', async () => {
    const root = tempDir('peon-full-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', root]);
    try {
      fs.writeFileSync(path.join(root, 'a.txt'), 'original\n');
      const r = await makeSession(root).call('write', { path: 'a.txt', content: 'x'.repeat(256 * 1024) });
      expect(r).toMatchObject({ ok: false, error: { code: 'io_error' } });
      expect(r.ok === false && r.error.message).toMatch(/No space left/);
      expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('original\n');
      expect(leftovers(root)).toEqual([]);
    } finally {
      execFileSync('umount', [root]);
    }
  });

  test('protected paths ask, also when creating them', async () => {
    const root = makeWorkspace();
    for (const p of ['.vscode/settings.json', '.git/hooks/pre-commit', '.peon/mcp.json', '.github/workflows/ci.yml', '.VSCode/tasks.json']) {
      const r = await makeSession(root, denyAll).call('write', { path: p, content: '{}' });
      expect(r, p).toMatchObject({ ok: false, permission: { decision: 'ask' } });
      expect(r.ok === false && r.error.message, p).toMatch(/is protected/);
      expect(fs.existsSync(path.join(root, p)), p).toBe(false);
    }
  });

  test('a new file under a symlinked directory that points outside is outside', async () => {
    const outside = tempDir();
    const root = makeWorkspace();
    fs.symlinkSync(outside, path.join(root, 'out'));
    const r = await makeSession(root, denyAll).call('write', { path: 'out/new.txt', content: 'x' });
    expect(r.ok === false && r.error.message).toMatch(/outside the workspace/);
    expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  test('a symlink inside the workspace pointing to a file outside: a write asks, and a denial changes nothing', async () => {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'target.txt'), 'outside\n');
    const root = makeWorkspace();
    fs.symlinkSync(path.join(outside, 'target.txt'), path.join(root, 'link.txt'));
    const r = await makeSession(root, denyAll).call('write', { path: 'link.txt', content: 'x' });
    expect(r).toMatchObject({ ok: false, error: { code: 'outside_workspace' } });
    expect(r.ok === false && r.error.message).toMatch(/outside the workspace/);
    expect(fs.readFileSync(path.join(outside, 'target.txt'), 'utf8')).toBe('outside\n');
  });

  test('writing through a symlink inside the workspace writes its target and keeps the link', async () => {
    const root = makeWorkspace({ 'real.txt': 'old\n' });
    fs.symlinkSync('real.txt', path.join(root, 'alias.txt'));
    expect((await makeSession(root).call('write', { path: 'alias.txt', content: 'new\n' })).ok).toBe(true);
    expect(fs.lstatSync(path.join(root, 'alias.txt')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(root, 'real.txt'), 'utf8')).toBe('new\n');
  });

  test('a directory is not a file', async () => {
    const root = makeWorkspace({ 'dir/a.txt': 'x' });
    expect(await makeSession(root).call('write', { path: 'dir', content: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
