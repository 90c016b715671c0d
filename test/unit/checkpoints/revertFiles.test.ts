// Reverting files across steps (src/core/checkpoints/revertFiles.ts), against real files
// and real commands: a file two steps changed goes back to before the first; a moved file
// is followed; a file the person changed since stops as a conflict with its three
// versions and is written only when forced; a deleted file the checkpoints did not keep
// (above the size cap) comes back from the trash, where the delete tool put a copy.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { Checkpoints, type Step } from '../../../src/core/checkpoints/checkpoints';
import { filesOf, netChange, revertFiles } from '../../../src/core/checkpoints/revertFiles';
import { Trash } from '../../../src/core/workspace/trash';
import { tempDir, writeFiles } from '../tools/toolTestContext';

const sh = (cwd: string, script: string): void => void execFileSync('/bin/bash', ['-c', script], { cwd });

async function opened(ws: string, options: { maxFileBytes?: number } = {}): Promise<Checkpoints> {
  const checkpoints = new Checkpoints({ folders: [ws], dir: tempDir('peon-ckpt-store-'), waitForFirstScan: true, ...options });
  await checkpoints.whenReady();
  return checkpoints;
}

async function step(checkpoints: Checkpoints, ws: string, script: string): Promise<Step> {
  const start = await checkpoints.beforeFolders('bash');
  sh(ws, script);
  return checkpoints.after(start);
}

test('a file two steps changed is one history; reverted, it is as before the first; made-and-removed and changed-back files come to nothing', async () => {
  const ws = tempDir('peon-rf-ws-');
  writeFiles(ws, { 'a.txt': 'a0\n', 'same.txt': 's\n', 'old.txt': 'moved\n' });
  const checkpoints = await opened(ws);
  const first = await step(checkpoints, ws, 'echo a1 > a.txt; echo tmp > tmp.txt; echo S > same.txt; mv old.txt mid.txt');
  const second = await step(checkpoints, ws, 'echo a2 > a.txt; rm tmp.txt; echo s > same.txt; mv mid.txt new.txt');
  const files = filesOf([second, first]);
  expect(files.map((f) => [f.path, f.changes.length, netChange(f).kind, netChange(f).from])).toEqual([
    ['a.txt', 2, 'modified', undefined],
    ['new.txt', 2, 'renamed', 'old.txt'],
    ['same.txt', 2, 'none', undefined],
    ['tmp.txt', 2, 'none', undefined],
  ]);
  const result = await revertFiles(checkpoints, files);
  expect(result.conflicts).toEqual([]);
  expect(result.restored).toHaveLength(8);
  expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('a0\n');
  expect(fs.readFileSync(path.join(ws, 'old.txt'), 'utf8')).toBe('moved\n');
  expect(fs.readFileSync(path.join(ws, 'same.txt'), 'utf8')).toBe('s\n');
  expect(['tmp.txt', 'mid.txt', 'new.txt'].filter((f) => fs.existsSync(path.join(ws, f)))).toEqual([]);
});

test('a file the person changed after the last step is a conflict with its three versions; nothing is written until forced', async () => {
  const ws = tempDir('peon-rf-ws-');
  writeFiles(ws, { 'notes.md': 'v0\n' });
  const checkpoints = await opened(ws);
  const first = await step(checkpoints, ws, 'echo v1 > notes.md');
  const second = await step(checkpoints, ws, 'echo v2 > notes.md');
  fs.writeFileSync(path.join(ws, 'notes.md'), 'mine\n');
  const [history] = filesOf([first, second]);
  const result = await revertFiles(checkpoints, [history!]);
  expect(result.restored).toEqual([]);
  const conflict = result.conflicts[0]!;
  expect([conflict.before?.toString(), conflict.after?.toString(), conflict.current?.toString()]).toEqual(['v0\n', 'v2\n', 'mine\n']);
  expect(conflict.history.changes.map((c) => c.step.id)).toEqual([first.id, second.id]);
  expect(fs.readFileSync(path.join(ws, 'notes.md'), 'utf8')).toBe('mine\n');
  const forced = await revertFiles(checkpoints, [conflict.history], { force: true });
  expect(forced.restored).toHaveLength(2);
  expect(fs.readFileSync(path.join(ws, 'notes.md'), 'utf8')).toBe('v0\n');
});

test('a deleted file above the size the checkpoints keep comes back from the trash (its content checked); without a copy it is reported lost', async () => {
  const ws = tempDir('peon-rf-ws-');
  writeFiles(ws, { 'big.bin': Buffer.alloc(4096, 7), 'other.bin': Buffer.alloc(4096, 9) });
  const checkpoints = await opened(ws, { maxFileBytes: 1024 });
  const trash = new Trash(tempDir('peon-rf-trash-'));
  // As the delete tool does: a copy into the trash, then the file removed.
  const file = path.join(ws, 'big.bin');
  const start = checkpoints.beforeFiles('delete', [file, path.join(ws, 'other.bin')]);
  await trash.keepCopy(file, file, 4096, 0o644);
  fs.rmSync(file);
  fs.rmSync(path.join(ws, 'other.bin'));
  const deleted = await checkpoints.after(start);
  expect(deleted.changes.map((c) => [c.path, c.kind, c.restorable])).toEqual([['big.bin', 'deleted', false], ['other.bin', 'deleted', false]]);
  const result = await revertFiles(checkpoints, filesOf([deleted]), { trash });
  expect(result.restored.map((r) => r.change.path)).toEqual(['big.bin']);
  expect(fs.readFileSync(file)).toEqual(Buffer.alloc(4096, 7));
  expect(await trash.list()).toEqual([]);
  expect(result.lost.map((l) => [l.change.path, l.why])).toEqual([['other.bin', 'it was larger than the size kept for checkpoints']]);
});
