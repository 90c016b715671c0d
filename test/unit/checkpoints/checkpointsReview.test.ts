// The hostile review of checkpoints, one test per break it reproduced: a revert never
// writes or deletes through a folder that became a symlink, never blocks on a FIFO, never
// overwrites silently what the person put in a file's place (a link, another mode), never
// reads a secret through a link into a conflict card; one file that cannot be put back
// leaves the others reverted; a move onto a path with its own history brings that file
// back too; owners come back (as root); the store stays within its cap when nothing but
// the person's own edits filled it. Real files, real folders, real FIFOs.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { Checkpoints, type Step } from '../../../src/core/checkpoints/checkpoints';
import { ObjectStore } from '../../../src/core/checkpoints/objectStore';
import { filesOf, revertFiles } from '../../../src/core/checkpoints/revertFiles';
import { readFileState } from '../../../src/core/checkpoints/treeState';
import { tempDir, writeFiles } from '../tools/toolTestContext';

const isRoot = process.getuid?.() === 0;

async function opened(files: Record<string, string>, maxStoreBytes?: number): Promise<{ ws: string; outside: string; store: string; checkpoints: Checkpoints; step: (change: () => void) => Promise<Step> }> {
  const ws = fs.realpathSync(tempDir('peon-ckpt-review-'));
  const outside = fs.realpathSync(tempDir('peon-ckpt-outside-'));
  const store = tempDir('peon-ckpt-review-store-');
  writeFiles(ws, files);
  const checkpoints = new Checkpoints({ folders: [ws], dir: store, waitForFirstScan: true, ...(maxStoreBytes ? { maxStoreBytes } : {}) });
  checkpoints.start();
  await checkpoints.whenReady();
  const step = async (change: () => void): Promise<Step> => {
    const start = await checkpoints.beforeFolders('bash');
    change();
    return checkpoints.after(start);
  };
  return { ws, outside, store, checkpoints, step };
}

test('a deleted file is not written back through its folder, now a symlink to a folder outside; the revert says why', async () => {
  const { ws, outside, checkpoints, step } = await opened({ 'd/authorized_keys': 'ssh-ed25519 AAAA attacker\n' });
  const deleted = await step(() => fs.rmSync(path.join(ws, 'd/authorized_keys')));
  expect(deleted.changes.map((c) => [c.kind, c.path])).toEqual([['deleted', 'd/authorized_keys']]);
  await step(() => {
    fs.rmSync(path.join(ws, 'd'), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'd'));
  });
  const result = await checkpoints.revert(deleted.id);
  expect(result.restored).toEqual([]);
  expect(result.lost.map((l) => l.why)).toEqual(['d is now a symbolic link: nothing is written through it']);
  expect(fs.readdirSync(outside)).toEqual([]);
  checkpoints.dispose();
});

test('a file the step created is not deleted through its folder, now a symlink: the file outside stays', async () => {
  const { ws, outside, checkpoints, step } = await opened({ 'd/.keep': '' });
  const created = await step(() => fs.writeFileSync(path.join(ws, 'd/lockfile'), ''));
  fs.writeFileSync(path.join(outside, 'lockfile'), '');
  await step(() => {
    fs.rmSync(path.join(ws, 'd'), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'd'));
  });
  const result = await checkpoints.revert(created.id);
  expect(result.restored).toEqual([]);
  expect(result.lost).toHaveLength(1);
  expect(fs.existsSync(path.join(outside, 'lockfile'))).toBe(true);
  checkpoints.dispose();
});

test('a FIFO now where a step modified a file: the revert returns at once with a conflict, and reads nothing from it', async () => {
  const { ws, checkpoints, step } = await opened({ 'a.txt': 'v0\n' });
  const modified = await step(() => fs.writeFileSync(path.join(ws, 'a.txt'), 'v1\n'));
  fs.rmSync(path.join(ws, 'a.txt'));
  execFileSync('mkfifo', [path.join(ws, 'a.txt')]);
  const result = await checkpoints.revert(modified.id);
  expect(result.restored).toEqual([]);
  expect(result.conflicts).toHaveLength(1);
  expect(result.conflicts[0]!.current).toBeUndefined();
  expect(result.conflicts[0]!.before?.toString()).toBe('v0\n');
  expect(fs.lstatSync(path.join(ws, 'a.txt')).isFIFO()).toBe(true);
  checkpoints.dispose();
});

test('a scan that finds a FIFO where it saw a file (swapped meanwhile) skips it without blocking', () => {
  const ws = tempDir('peon-ckpt-fifo-');
  fs.writeFileSync(path.join(ws, 'f'), 'regular\n');
  const seen = fs.lstatSync(path.join(ws, 'f'));
  fs.rmSync(path.join(ws, 'f'));
  execFileSync('mkfifo', [path.join(ws, 'f')]);
  const store = new ObjectStore(path.join(tempDir('peon-ckpt-fifo-store-'), 'shadow.git'));
  store.init();
  expect(readFileState(path.join(ws, 'f'), seen.ino, store, 1 << 20)).toBeUndefined();
  // A symlink swapped in for the file is not followed either.
  fs.rmSync(path.join(ws, 'f'));
  fs.writeFileSync(path.join(ws, 'secret'), 'outside the scan\n');
  fs.symlinkSync(path.join(ws, 'secret'), path.join(ws, 'f'));
  expect(readFileState(path.join(ws, 'f'), seen.ino, store, 1 << 20)).toBeUndefined();
});

test('what the person put in a file\'s place since (a symlink, another mode) is a conflict, never replaced silently; a link\'s target is not read into the card', async () => {
  const { ws, outside, checkpoints, step } = await opened({ 'a.txt': 'v0\n', 'b.txt': 'b0\n', 'run.sh': 'echo 0\n' });
  fs.chmodSync(path.join(ws, 'run.sh'), 0o644);
  const changed = await step(() => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'v1\n');
    fs.rmSync(path.join(ws, 'b.txt'));
    fs.writeFileSync(path.join(ws, 'run.sh'), 'echo 1\n');
  });
  fs.writeFileSync(path.join(outside, 'id_rsa'), 'PRIVATE KEY BYTES\n');
  fs.rmSync(path.join(ws, 'a.txt'));
  fs.symlinkSync(path.join(outside, 'id_rsa'), path.join(ws, 'a.txt'));
  fs.writeFileSync(path.join(ws, 'mine.txt'), 'mine\n');
  fs.symlinkSync('mine.txt', path.join(ws, 'b.txt'));
  fs.chmodSync(path.join(ws, 'run.sh'), 0o755);

  const result = await checkpoints.revert(changed.id);
  expect(result.restored).toEqual([]);
  expect(result.conflicts.map((c) => c.change.path)).toEqual(['a.txt', 'b.txt', 'run.sh']);
  expect(result.conflicts.map((c) => c.current?.toString())).toEqual([undefined, undefined, 'echo 1\n']);
  expect(fs.lstatSync(path.join(ws, 'b.txt')).isSymbolicLink()).toBe(true);
  expect(fs.statSync(path.join(ws, 'run.sh')).mode & 0o777).toBe(0o755);
  // The person chose, having seen the versions: then it is written.
  const forced = await checkpoints.revert(changed.id, { paths: ['run.sh'], force: ['run.sh'] });
  expect(forced.restored.map((c) => c.path)).toEqual(['run.sh']);
  expect(fs.readFileSync(path.join(ws, 'run.sh'), 'utf8')).toBe('echo 0\n');
  expect(fs.statSync(path.join(ws, 'run.sh')).mode & 0o777).toBe(0o644);
  checkpoints.dispose();
});

test('a file that became a folder is that file\'s conflict; the other files of the turn are reverted all the same', async () => {
  const { ws, checkpoints, step } = await opened({ 'b.txt': 'b0\n', 'c.txt': 'c0\n' });
  const changed = await step(() => {
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b1\n');
    fs.writeFileSync(path.join(ws, 'c.txt'), 'c1\n');
  });
  fs.rmSync(path.join(ws, 'c.txt'));
  fs.mkdirSync(path.join(ws, 'c.txt'));
  const result = await revertFiles(checkpoints, filesOf([changed]));
  expect(result.restored.map((r) => r.change.path)).toEqual(['b.txt']);
  expect(result.conflicts.map((c) => c.history.path)).toEqual(['c.txt']);
  expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe('b0\n');
  expect(fs.statSync(path.join(ws, 'c.txt')).isDirectory()).toBe(true);
  checkpoints.dispose();
});

test('a move onto a path that had its own history: reverting the steps brings back both files as they were', async () => {
  const { ws, checkpoints, step } = await opened({ 'a.txt': 'A0\n', 'b.txt': "B0 the person's original\n" });
  const steps = [
    await step(() => fs.writeFileSync(path.join(ws, 'a.txt'), 'A1\n')),
    await step(() => fs.writeFileSync(path.join(ws, 'b.txt'), 'B1\n')),
    await step(() => fs.rmSync(path.join(ws, 'b.txt'))),
    await step(() => fs.renameSync(path.join(ws, 'a.txt'), path.join(ws, 'b.txt'))),
  ];
  expect(steps[3]!.changes.map((c) => [c.kind, c.from, c.path])).toEqual([['renamed', 'a.txt', 'b.txt']]);
  const histories = filesOf(steps);
  expect(histories.map((h) => [h.path, h.changes.map((c) => c.change.kind)])).toEqual([['b.txt', ['modified', 'modified', 'deleted', 'renamed']]]);
  const result = await revertFiles(checkpoints, histories);
  expect([result.restored.length, result.conflicts.length, result.lost.length]).toEqual([4, 0, 0]);
  expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('A0\n');
  expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe("B0 the person's original\n");
  checkpoints.dispose();
});

test.runIf(isRoot)('as root, a reverted file gets its owner back (and its setuid bit stays the owner\'s, not root\'s)', async () => {
  const { ws, checkpoints, step } = await opened({ tool: '#!/bin/sh\necho hi\n' });
  const file = path.join(ws, 'tool');
  fs.chownSync(file, 1000, 1000);
  fs.chmodSync(file, 0o4755);
  const changed = await step(() => fs.writeFileSync(file, '#!/bin/sh\necho changed\n'));
  await checkpoints.revert(changed.id);
  const stat = fs.statSync(file);
  expect([stat.uid, stat.gid, (stat.mode & 0o7777).toString(8)]).toEqual([1000, 1000, '4755']);
  expect(fs.readFileSync(file, 'utf8')).toBe('#!/bin/sh\necho hi\n');
  checkpoints.dispose();
});

test('the person\'s own edits between steps, kept by the scans but named by no step, are swept before any step loses its contents', async () => {
  const cap = 1 << 20;
  const { ws, store, checkpoints, step } = await opened({ 'start.txt': 'x\n' }, cap);
  const steps: Step[] = [];
  for (let i = 0; i < 12; i++) {
    fs.writeFileSync(path.join(ws, 'person.bin'), randomBytes(300 * 1024));
    steps.push(await step(() => fs.writeFileSync(path.join(ws, `step${i}.txt`), `x${i}\n`)));
  }
  const pruned = checkpoints.prune(0);
  expect(pruned.droppedSteps).toBe(0);
  expect(pruned.freedBytes).toBeGreaterThan(2 * cap);
  const size = (dir: string): number => fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).reduce((sum, e) => sum + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
  expect(size(store)).toBeLessThan(cap);
  // Every step still reverts.
  const oldest = await checkpoints.revert(steps[0]!.id);
  expect(oldest.lost).toEqual([]);
  expect(fs.existsSync(path.join(ws, 'step0.txt'))).toBe(false);
  checkpoints.dispose();
});
