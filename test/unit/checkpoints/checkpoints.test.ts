// Checkpoints against real files, real commands and real git (DESIGN.md §10, SECURITY.md
// "Checkpoints"): a step's created, modified and deleted files, reverted exactly; a
// revert after the person edited the file (three versions, nothing overwritten); a
// workspace that is not a repository, a nested repository, several folders; an ignored
// 2 GB folder never copied; the user's .git byte-identical.
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoints';
import { tempDir, writeFiles } from '../tools/toolTestContext';

const sh = (cwd: string, script: string): void => void execFileSync('/bin/bash', ['-c', script], { cwd });

async function ready(checkpoints: Checkpoints): Promise<void> {
  checkpoints.start();
  // The first snapshot runs in the background: a step taken now would be untracked; wait until one is tracked.
  for (;;) {
    const start = await checkpoints.beforeFolders('probe');
    const step = await checkpoints.after(start);
    if (!step.untracked) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function open(folders: string[]): Checkpoints {
  return new Checkpoints({ folders: folders.map((f) => fs.realpathSync(f)), dir: tempDir('peon-ckpt-store-') });
}

/** Every file under `dir`, with its content's hash: to compare a folder before and after. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else out[child] = createHash('sha256').update(fs.readFileSync(path.join(dir, child))).digest('hex');
    }
  };
  walk('');
  return out;
}

test('a command that creates, modifies and deletes files is one step listing each; reverting it puts back exactly what was there, modes included', async () => {
  const ws = tempDir('peon-ckpt-ws-');
  writeFiles(ws, { 'keep.txt': 'untouched\n', 'edit.txt': 'one\ntwo\n', 'gone.txt': 'bye\n', 'run.sh': '#!/bin/sh\necho hi\n' });
  fs.chmodSync(path.join(ws, 'run.sh'), 0o755);
  const checkpoints = open([ws]);
  await ready(checkpoints);
  const start = await checkpoints.beforeFolders('bash');
  sh(ws, 'echo new > made.txt; printf "one\\nTWO\\n" > edit.txt; rm gone.txt; echo "echo bye" >> run.sh; chmod 644 run.sh');
  const step = await checkpoints.after(start);
  expect(step.untracked).toBeUndefined();
  expect(step.changes.map((c) => [c.path, c.kind])).toEqual([['edit.txt', 'modified'], ['gone.txt', 'deleted'], ['made.txt', 'created'], ['run.sh', 'modified']]);
  expect(checkpoints.content(step.changes[0]!, 'before')?.toString()).toBe('one\ntwo\n');
  const result = await checkpoints.revert(step.id);
  expect(result.conflicts).toEqual([]);
  expect(result.restored).toHaveLength(4);
  expect(fs.readFileSync(path.join(ws, 'edit.txt'), 'utf8')).toBe('one\ntwo\n');
  expect(fs.readFileSync(path.join(ws, 'gone.txt'), 'utf8')).toBe('bye\n');
  expect(fs.existsSync(path.join(ws, 'made.txt'))).toBe(false);
  expect(fs.readFileSync(path.join(ws, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
  expect(fs.statSync(path.join(ws, 'run.sh')).mode & 0o777).toBe(0o755);
  expect(fs.readFileSync(path.join(ws, 'keep.txt'), 'utf8')).toBe('untouched\n');
});

test('one file of a step can be reverted alone; a move is a rename', async () => {
  const ws = tempDir('peon-ckpt-ws-');
  writeFiles(ws, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'old/name.txt': 'moved content\n' });
  const checkpoints = open([ws]);
  await ready(checkpoints);
  const start = await checkpoints.beforeFolders('bash');
  sh(ws, 'echo A > a.txt; echo B > b.txt; mkdir -p new && mv old/name.txt new/name.txt');
  const step = await checkpoints.after(start);
  expect(step.changes.map((c) => [c.path, c.kind, c.from])).toEqual([['a.txt', 'modified', undefined], ['b.txt', 'modified', undefined], ['new/name.txt', 'renamed', 'old/name.txt']]);
  await checkpoints.revert(step.id, { paths: ['b.txt', 'new/name.txt'] });
  expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('A\n');
  expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe('b\n');
  expect(fs.readFileSync(path.join(ws, 'old/name.txt'), 'utf8')).toBe('moved content\n');
  expect(fs.existsSync(path.join(ws, 'new/name.txt'))).toBe(false);
});

test('a file the person changed after the step is never overwritten: the revert returns the three versions, and writes only when told', async () => {
  const ws = tempDir('peon-ckpt-ws-');
  writeFiles(ws, { 'notes.md': 'v1\n' });
  const checkpoints = open([ws]);
  await ready(checkpoints);
  const start = await checkpoints.beforeFolders('bash');
  sh(ws, 'echo v2 > notes.md');
  const step = await checkpoints.after(start);
  fs.writeFileSync(path.join(ws, 'notes.md'), 'v3, the person\'s\n');
  const result = await checkpoints.revert(step.id);
  expect(result.restored).toEqual([]);
  expect(result.conflicts).toHaveLength(1);
  const conflict = result.conflicts[0]!;
  expect([conflict.before?.toString(), conflict.after?.toString(), conflict.current?.toString()]).toEqual(['v1\n', 'v2\n', 'v3, the person\'s\n']);
  expect(fs.readFileSync(path.join(ws, 'notes.md'), 'utf8')).toBe('v3, the person\'s\n');
  const forced = await checkpoints.revert(step.id, { force: ['notes.md'] });
  expect(forced.restored).toHaveLength(1);
  expect(fs.readFileSync(path.join(ws, 'notes.md'), 'utf8')).toBe('v1\n');
});

test('a workspace that is not a repository, a nested repository (its files tracked, its .git untouched) and the user\'s own .git byte-identical', async () => {
  const plain = tempDir('peon-ckpt-plain-');
  writeFiles(plain, { 'x.txt': 'x\n' });
  const repo = tempDir('peon-ckpt-repo-');
  writeFiles(repo, { 'src/main.c': 'int main(){}\n', 'vendor/lib/lib.c': 'lib\n' });
  sh(repo, 'git init -q . && git add -A && git -c user.email=a@b -c user.name=t commit -qm one && git init -q vendor/lib && git -C vendor/lib add -A && git -C vendor/lib -c user.email=a@b -c user.name=t commit -qm lib');
  const before = { outer: fingerprint(path.join(repo, '.git')), nested: fingerprint(path.join(repo, 'vendor/lib/.git')) };
  const checkpoints = open([plain, repo]);
  await ready(checkpoints);
  const start = await checkpoints.beforeFolders('bash');
  sh(plain, 'echo y > y.txt');
  sh(repo, 'echo "int x;" >> src/main.c; echo patched > vendor/lib/lib.c');
  const step = await checkpoints.after(start);
  const roots = { [fs.realpathSync(plain)]: 'plain', [fs.realpathSync(repo)]: 'repo' };
  expect(step.changes.map((c) => [roots[c.root], c.path, c.kind])).toEqual([
    ['plain', 'y.txt', 'created'],
    ['repo', 'src/main.c', 'modified'],
    ['repo', 'vendor/lib/lib.c', 'modified'],
  ]);
  await checkpoints.revert(step.id);
  expect(fs.readFileSync(path.join(repo, 'vendor/lib/lib.c'), 'utf8')).toBe('lib\n');
  expect(fs.existsSync(path.join(plain, 'y.txt'))).toBe(false);
  expect(fingerprint(path.join(repo, '.git'))).toEqual(before.outer);
  expect(fingerprint(path.join(repo, 'vendor/lib/.git'))).toEqual(before.nested);
  // The shadow is a real git repository: git itself reads what it keeps.
  const change = step.changes.find((c) => c.path === 'src/main.c')!;
  const dir = (checkpoints as unknown as { options: { dir: string } }).options.dir;
  const store = fs.readdirSync(dir).map((d) => path.join(dir, d)).find((d) => fs.readFileSync(path.join(d, 'folder'), 'utf8').trim() === fs.realpathSync(repo))! + '/shadow.git';
  expect(execFileSync('git', ['--git-dir', store, 'cat-file', '-p', change.before!], { encoding: 'utf8' })).toBe('int main(){}\n');
});

test('a gitignored 2 GB folder and node_modules are never read or copied; a file above the size cap is recorded, not kept', async () => {
  const ws = tempDir('peon-ckpt-ws-');
  writeFiles(ws, { '.gitignore': 'build/\n', 'src.txt': 's\n', 'node_modules/pkg/index.js': 'module.exports = 1;\n' });
  fs.mkdirSync(path.join(ws, 'build'));
  sh(ws, 'truncate -s 2G build/huge.bin && truncate -s 6M big.bin'); // sparse: no disk used, but 2 GB to read
  const store = tempDir('peon-ckpt-store-');
  const checkpoints = new Checkpoints({ folders: [fs.realpathSync(ws)], dir: store });
  await ready(checkpoints);
  const start = await checkpoints.beforeFolders('bash');
  sh(ws, 'echo more >> build/huge.bin; echo x > node_modules/pkg/index.js; truncate -s 7M big.bin; echo t > src.txt');
  const step = await checkpoints.after(start);
  expect(step.changes.map((c) => [c.path, c.kind, c.restorable])).toEqual([['big.bin', 'modified', false], ['src.txt', 'modified', true]]);
  const used = Number(execFileSync('du', ['-sk', store], { encoding: 'utf8' }).split('\t')[0]);
  expect(used).toBeLessThan(1024); // KB: neither the 2 GB folder nor the 6 MB file was copied
  const result = await checkpoints.revert(step.id);
  expect(result.lost.map((l) => [l.change.path, l.why])).toEqual([['big.bin', 'it was larger than the size kept for checkpoints']]);
  expect(fs.readFileSync(path.join(ws, 'src.txt'), 'utf8')).toBe('s\n');
});

test('a step taken before the first snapshot is done says so; a file tool\'s step reads only its own paths', async () => {
  const ws = tempDir('peon-ckpt-ws-');
  writeFiles(ws, { 'a.txt': 'a\n', 'other.txt': 'o\n' });
  const checkpoints = open([ws]);
  checkpoints.start();
  const early = await checkpoints.after(await checkpoints.beforeFolders('bash'));
  expect(early.untracked).toBe('the first snapshot of the workspace was still being taken');
  const file = path.join(fs.realpathSync(ws), 'a.txt');
  const start = checkpoints.beforeFiles('write', [file]);
  fs.writeFileSync(file, 'A\n');
  fs.writeFileSync(path.join(ws, 'other.txt'), 'changed by someone else\n');
  const step = await checkpoints.after(start);
  expect(step.changes.map((c) => [c.path, c.kind])).toEqual([['a.txt', 'modified']]);
  await checkpoints.revert(step.id);
  expect(fs.readFileSync(file, 'utf8')).toBe('a\n');
});

test('storage is capped: the oldest steps lose their contents first, what the folder holds now is kept', async () => {
  const ws = tempDir('peon-ckpt-ws-');
  writeFiles(ws, { 'f.txt': 'start\n' });
  const store = tempDir('peon-ckpt-store-');
  const checkpoints = new Checkpoints({ folders: [fs.realpathSync(ws)], dir: store, maxStoreBytes: 90_000 });
  await ready(checkpoints);
  const steps = [];
  for (let i = 0; i < 6; i++) {
    const start = await checkpoints.beforeFolders('bash');
    fs.writeFileSync(path.join(ws, 'f.txt'), `${i}:${randomBytes(26_000).toString('base64')}\n`); // ~35 KB, ~26 KB compressed
    steps.push(await checkpoints.after(start));
  }
  const pruned = checkpoints.prune();
  expect(pruned.droppedSteps).toBeGreaterThan(0);
  const oldest = await checkpoints.revert(steps[1]!.id, { force: ['f.txt'] });
  expect(oldest.lost[0]?.why).toMatch(/pruned/);
  // The newest step still reverts: its "before" is kept.
  const newest = await checkpoints.revert(steps[5]!.id);
  expect(newest.restored).toHaveLength(1);
  expect(fs.readFileSync(path.join(ws, 'f.txt'), 'utf8')).toMatch(/^4:/);
});

test('two folders holding the same path: a file reverted by its absolute path is that folder\'s only', async () => {
  const one = tempDir('peon-ckpt-one-');
  const two = tempDir('peon-ckpt-two-');
  writeFiles(one, { 'README.md': 'one\n' });
  writeFiles(two, { 'README.md': 'two\n' });
  const checkpoints = open([one, two]);
  await ready(checkpoints);
  const start = await checkpoints.beforeFolders('bash');
  sh(one, 'echo ONE > README.md');
  sh(two, 'echo TWO > README.md');
  const step = await checkpoints.after(start);
  expect(step.changes.map((c) => [c.root, c.path])).toEqual([[one, 'README.md'], [two, 'README.md']]);
  const result = await checkpoints.revert(step.id, { paths: [path.join(two, 'README.md')] });
  expect(result.restored.map((c) => c.root)).toEqual([two]);
  expect(fs.readFileSync(path.join(one, 'README.md'), 'utf8')).toBe('ONE\n');
  expect(fs.readFileSync(path.join(two, 'README.md'), 'utf8')).toBe('two\n');
});

test('a saved step naming a path outside its folder is not taken back: nothing is written there', async () => {
  const ws = tempDir('peon-ckpt-ws-');
  const outside = path.join(path.dirname(ws), `${path.basename(ws)}-outside.txt`);
  const checkpoints = open([ws]);
  const change = { root: ws, kind: 'deleted' as const, before: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', restorable: true };
  checkpoints.restore([
    { id: 'escape', tool: 'bash', at: 1, changes: [{ ...change, path: `../${path.basename(outside)}` }] },
    { id: 'absolute', tool: 'bash', at: 2, changes: [{ ...change, path: outside }] },
    { id: 'fine', tool: 'bash', at: 3, changes: [{ ...change, path: 'inside.txt' }] },
  ]);
  expect(checkpoints.step('escape')).toBeUndefined();
  expect(checkpoints.step('absolute')).toBeUndefined();
  expect(checkpoints.step('fine')).toBeDefined();
  await expect(checkpoints.revert('escape')).rejects.toThrow(/No step escape/);
  expect(fs.existsSync(outside)).toBe(false);
});

test("Peon's own memory written while a command runs (a closed chat's summary) is not the command's change", async () => {
  const ws = tempDir('peon-ckpt-ws-');
  writeFiles(ws, { 'a.txt': 'a\n', '.peon/memory/observations/obs-000001.md': 'kept\n', '.peon/todos.json': '[]\n' });
  const checkpoints = open([ws]);
  await ready(checkpoints);
  const start = await checkpoints.beforeFolders('bash');
  sh(ws, 'echo A > a.txt; echo "[1]" > .peon/todos.json');
  writeFiles(ws, { '.peon/memory/summaries/sum-000002.md': 'the last chat\n', '.peon/memory/.cache/index.json': '{}\n' });
  const step = await checkpoints.after(start);
  expect(step.changes.map((c) => c.path)).toEqual(['.peon/todos.json', 'a.txt']);
});
