// B12: loading the production extension bundle, against `node` on an empty file.
// Budget: at most 150 ms over empty. (activate() awaiting no network, secrets or scans
// is a property of src/extension/extension.ts, which keeps activate() synchronous.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../scripts/paths.mjs';
import { timeCommand } from '../measure.mjs';

export const id = 'B12';
export const title = 'extension bundle load vs node on an empty file';

export function run() {
  execFileSync(process.execPath, ['esbuild.mjs', '--production', '--quiet'], { cwd: repoRoot, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b12-'));
  const empty = path.join(dir, 'empty.js');
  fs.writeFileSync(empty, '');
  // The bundle leaves `vscode` external; at load time it only needs the module to exist.
  const stub = path.join(dir, 'node_modules', 'vscode');
  fs.mkdirSync(stub, { recursive: true });
  fs.writeFileSync(path.join(stub, 'index.js'), 'module.exports = {};\n');
  const load = path.join(dir, 'load.js');
  fs.writeFileSync(load, `require(${JSON.stringify(path.join(repoRoot, 'dist', 'extension.js'))});\n`);
  const reference = timeCommand(process.execPath, [empty]);
  const measured = timeCommand(process.execPath, [load], { env: { NODE_PATH: path.join(dir, 'node_modules') } });
  fs.rmSync(dir, { recursive: true, force: true });
  const over = measured - reference;
  return {
    reference: `${reference.toFixed(1)} ms`,
    measured: `${measured.toFixed(1)} ms`,
    ratio: measured / reference,
    budget: '≤ 150 ms over empty',
    pass: over <= 150,
    note: `${over.toFixed(1)} ms over empty`,
  };
}
