// B15: one bash step's checkpoint (the scan before it and the scan after it, 3 files
// changed in between) in the 8k-file workspace fixture, steady state (its first snapshot
// taken), against `git status --porcelain` on the same tree, twice. And the first
// snapshot of that tree against `git add -A` into a fresh index (git hashing and storing
// every file, as the first snapshot does). Budgets ≤ 1.5× both.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCorpora } from '../corpora.mjs';
import { median, ratioRow } from '../measure.mjs';
import { loadTs } from '../../scripts/loadTs.mjs';

export const id = 'B15';
export const title = 'checkpoint of one bash step vs git status, twice';

const RUNS = 11;

export async function run() {
  const { fixture } = await ensureCorpora({ log: () => {} });
  const core = await loadTs('bench/toolsEntry.ts');
  // A copy: the fixture itself stays as built.
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b15-ws-'));
  fs.cpSync(fixture, ws, { recursive: true });
  const files = ['net/http/server.go', 'fmt/print.go', 'README.vendor'].filter((f) => fs.existsSync(path.join(ws, f)));
  if (files.length !== 3) throw new Error(`B15: the fixture lacks one of the files it changes (${files.join(', ')})`);
  const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const git = (...args) => execFileSync('git', args, { cwd: ws, env: gitEnv, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
  git('status', '--porcelain'); // the index's stat cache, as it is in a repository people work in
  const stores = [];
  const open = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b15-store-'));
    stores.push(dir);
    return new core.Checkpoints({ folders: [fs.realpathSync(ws)], dir });
  };
  const time = async (fn) => {
    const started = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  try {
    // The first snapshot: every file read, hashed and stored; against git hashing and storing every file.
    const first = [];
    const addAll = [];
    for (let i = 0; i < 5; i++) {
      const checkpoints = open();
      first.push(await time(async () => {
        checkpoints.start();
        await checkpoints.whenReady();
      }));
      const index = path.join(os.tmpdir(), `peon-b15-index-${process.pid}-${i}`);
      const objects = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b15-objects-'));
      stores.push(objects);
      addAll.push(await time(async () => execFileSync('git', ['add', '-A'], { cwd: ws, env: { ...gitEnv, GIT_INDEX_FILE: index, GIT_OBJECT_DIRECTORY: objects, GIT_ALTERNATE_OBJECT_DIRECTORIES: '' }, stdio: 'ignore' })));
      fs.rmSync(index, { force: true });
    }
    // Steady state: one step, 3 files changed between its two scans.
    const checkpoints = open();
    checkpoints.start();
    await checkpoints.whenReady();
    const steps = [];
    const statuses = [];
    for (let i = 0; i < RUNS + 2; i++) {
      let start;
      const before = await time(async () => (start = await checkpoints.beforeFolders('bash')));
      for (const f of files) fs.appendFileSync(path.join(ws, f), `// run ${i}\n`);
      let step;
      const after = await time(async () => (step = await checkpoints.after(start)));
      if (step.changes.length !== 3) throw new Error(`B15: the step found ${step.changes.length} changes, not 3`);
      steps.push(before + after);
      statuses.push(await time(async () => { git('status', '--porcelain'); git('status', '--porcelain'); }));
    }
    return [
      { id: 'B15', title: 'checkpoint of one bash step (3 files changed), steady state, vs two `git status --porcelain`', ...ratioRow(median(steps.slice(2)), median(statuses.slice(2)), 1.5, '8k-file fixture') },
      { id: 'B15', title: 'first snapshot of the fixture vs `git add -A` into a fresh index', ...ratioRow(median(first), median(addAll), 1.5, '') },
    ];
  } finally {
    for (const dir of [ws, ...stores]) fs.rmSync(dir, { recursive: true, force: true });
  }
}
