// The lstat of many paths, half of them in a worker thread (parallelStat.ts): the same
// numbers lstat gives here, whichever half a path falls in; and a scan of a folder large
// enough to use the worker still finds a step's change in either half, a file turned
// into a link, and a file gone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoints';
import { At, FIELDS, Kind, lstatMany } from '../../../src/core/workspace/parallelStat';
import { tempDir } from '../tools/toolTestContext';

function folderOf(count: number): { root: string; names: string[] } {
  const root = fs.realpathSync(tempDir('peon-pstat-'));
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const dir = `d${Math.floor(i / 100)}`;
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    const name = `${dir}/f${i}.txt`;
    fs.writeFileSync(path.join(root, name), `file ${i}\n`.repeat(i % 7));
    names.push(name);
  }
  return { root, names };
}

test('every path gets what lstat says of it, in the worker half as in this one: files, a folder, a link, a FIFO, a missing path', async () => {
  const { root, names } = folderOf(3000);
  fs.symlinkSync(path.join(root, names[0]!), path.join(root, 'link'));
  execFileSync('mkfifo', [path.join(root, 'fifo')]);
  const paths = names.map((n) => path.join(root, n));
  // The odd ones at the end: they fall in the worker's half.
  paths.push(path.join(root, 'd3'), path.join(root, 'link'), path.join(root, 'fifo'), path.join(root, 'missing'), path.join(root, names[5]!, 'under-a-file'));
  const out = await lstatMany(paths);
  expect(out.length).toBe(paths.length * FIELDS);
  const kinds = { file: Kind.File, dir: Kind.Directory };
  for (let i = 0; i < paths.length; i++) {
    let s: fs.Stats | undefined;
    try {
      s = fs.lstatSync(paths[i]!, { throwIfNoEntry: false });
    } catch {
      s = undefined; // ENOTDIR: below a file
    }
    const o = i * FIELDS;
    if (!s) {
      expect(out[o + At.Kind], paths[i]).toBe(Kind.Missing);
      continue;
    }
    expect(out[o + At.Kind], paths[i]).toBe(s.isFile() ? kinds.file : s.isDirectory() ? kinds.dir : Kind.Other);
    expect([out[o + At.Ino], out[o + At.Size], out[o + At.CtimeMs], out[o + At.Mode], out[o + At.Uid], out[o + At.Gid]], paths[i]).toEqual([s.ino, s.size, s.ctimeMs, s.mode, s.uid, s.gid]);
  }
  // A lookup that fails for another reason than "not there" says so: a link loop on the way, a path too long.
  fs.symlinkSync('loop', path.join(root, 'loop'));
  const failing = [path.join(root, 'loop', 'x'), path.join(root, 'a'.repeat(250), 'b'.repeat(250)).padEnd(5000, '/c')];
  const many = [...paths.slice(0, 2000), ...failing];
  const failed = await lstatMany(many);
  for (const i of [2000, 2001]) expect(failed[i * FIELDS + At.Kind], many[i]).toBe(Kind.Failed);
  // A few paths: all here, the same numbers.
  const few = await lstatMany(paths.slice(-5));
  expect([...few]).toEqual([...out.slice(-5 * FIELDS)]);
});

test('a file that cannot be looked at is not taken for deleted or created (a revert would delete it); the scan and the steps go on', async () => {
  const { root } = folderOf(1600);
  // A folder path under PATH_MAX holding a file whose path is over it: lstat says ENAMETOOLONG, not "not there".
  const deep = path.join(root, ...Array.from({ length: 16 }, (_, i) => `${String(i).padStart(3, '0')}${'d'.repeat(247)}`));
  fs.mkdirSync(deep, { recursive: true });
  execFileSync('/bin/bash', ['-c', `: > ${'f'.repeat(200)}`], { cwd: deep });
  const checkpoints = new Checkpoints({ folders: [root], dir: tempDir('peon-pstat-store-') });
  checkpoints.start();
  await checkpoints.whenReady();
  const start = await checkpoints.beforeFolders('bash');
  fs.appendFileSync(path.join(root, 'd3/f300.txt'), 'changed\n');
  const step = await checkpoints.after(start);
  expect(step.untracked).toBeUndefined();
  expect(step.changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['modified d3/f300.txt']);
  // Removed from inside its folder: no absolute path reaches it (the temp folder's clean-up could not).
  execFileSync('/bin/bash', ['-c', `rm ${'f'.repeat(200)}`], { cwd: deep });
  const next = await checkpoints.after(await checkpoints.beforeFolders('bash'));
  expect(next.untracked).toBeUndefined();
  expect(next.changes).toEqual([]);
  checkpoints.dispose();
});

test('a scan that uses the worker finds a step\'s changes in either half: modified, made a link, deleted, created', async () => {
  const { root, names } = folderOf(2500);
  const checkpoints = new Checkpoints({ folders: [root], dir: tempDir('peon-pstat-store-') });
  checkpoints.start();
  await checkpoints.whenReady();
  const start = await checkpoints.beforeFolders('bash');
  fs.appendFileSync(path.join(root, names[10]!), 'changed early\n'); // this thread's half
  fs.appendFileSync(path.join(root, names[2400]!), 'changed late\n'); // the worker's half
  fs.rmSync(path.join(root, names[2401]!));
  fs.rmSync(path.join(root, names[2402]!));
  fs.symlinkSync('/etc/hostname', path.join(root, names[2402]!));
  fs.rmSync(path.join(root, names[2403]!));
  fs.writeFileSync(path.join(root, 'd24/new.txt'), 'new\n');
  const step = await checkpoints.after(start);
  expect(step.untracked).toBeUndefined();
  expect(step.changes.map((c) => `${c.kind} ${c.path}`)).toEqual([`modified ${names[10]}`, `modified ${names[2400]}`, `deleted ${names[2401]}`, `deleted ${names[2402]}`, `deleted ${names[2403]}`, 'created d24/new.txt'].sort((a, b) => (a.split(' ')[1]! < b.split(' ')[1]! ? -1 : 1)));
  const reverted = await checkpoints.revert(step.id);
  // The link stands where the file was: not overwritten, a conflict to decide.
  expect(reverted.conflicts.map((c) => c.change.path)).toEqual([names[2402]]);
  expect(reverted.lost).toEqual([]);
  expect(fs.lstatSync(path.join(root, names[2402]!)).isSymbolicLink()).toBe(true);
  expect(fs.readFileSync(path.join(root, names[2400]!), 'utf8')).toBe(`file 2400\n`.repeat(2400 % 7));
  expect(fs.existsSync(path.join(root, names[2401]!))).toBe(true);
  expect(fs.existsSync(path.join(root, 'd24/new.txt'))).toBe(false);
  checkpoints.dispose();
});

test('as an ordinary user: a folder made unreadable, or unsearchable, by one step and given back by the next is no deletion and no creation; reverting either step deletes nothing', async () => {
  if (process.getuid?.() !== 0) return; // the scenario runs as `nobody`, started from root
  // The scenario in a bundle `nobody` can read, run as `nobody` in a folder it owns (as root, EACCES never happens).
  const scratch = fs.mkdtempSync('/tmp/peon-pstat-nobody-');
  fs.chmodSync(scratch, 0o755);
  const entry = path.join(scratch, 'scenario.ts');
  fs.writeFileSync(entry, `
    import fs from 'node:fs';
    import path from 'node:path';
    import { Checkpoints } from ${JSON.stringify(path.resolve(__dirname, '../../../src/core/checkpoints/checkpoints'))};
    const root = fs.mkdtempSync(path.join(process.argv[2], 'ws-'));
    const checkpoints = new Checkpoints({ folders: [root], dir: fs.mkdtempSync(path.join(process.argv[2], 'store-')) });
    const out = [];
    (async () => {
      for (const mode of [0o000, 0o644]) {
        fs.mkdirSync(path.join(root, 'private'), { recursive: true });
        fs.writeFileSync(path.join(root, 'private/notes.txt'), 'the person\\'s notes\\n');
        checkpoints.start();
        await checkpoints.whenReady();
        const steps = [];
        for (const m of [mode, 0o755]) {
          const start = await checkpoints.beforeFolders('bash');
          fs.chmodSync(path.join(root, 'private'), m);
          steps.push(await checkpoints.after(start));
        }
        for (const step of [...steps].reverse()) await checkpoints.revert(step.id);
        fs.chmodSync(path.join(root, 'private'), 0o755);
        out.push({ mode: mode.toString(8), changes: steps.map((s) => s.changes.map((c) => c.kind + ' ' + c.path)), untracked: steps.map((s) => s.untracked ?? null), kept: fs.existsSync(path.join(root, 'private/notes.txt')) });
      }
      checkpoints.dispose();
      process.stdout.write(JSON.stringify(out));
    })();
  `);
  const bundle = path.join(scratch, 'scenario.cjs');
  (await import('esbuild')).buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, loader: { '.md': 'text' }, logLevel: 'error' });
  const work = path.join(scratch, 'work');
  fs.mkdirSync(work);
  fs.chownSync(work, 65534, 65534);
  try {
    const ran = execFileSync(process.execPath, [bundle, work], { uid: 65534, gid: 65534, encoding: 'utf8' });
    expect(JSON.parse(ran)).toEqual([
      { mode: '0', changes: [[], []], untracked: [null, null], kept: true },
      { mode: '644', changes: [[], []], untracked: [null, null], kept: true },
    ]);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}, 60_000);
