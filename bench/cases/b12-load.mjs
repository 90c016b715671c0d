// B12: loading the production extension bundle, against `node` on an empty file.
// Budget (PERF.md): at most 1.3×. Activation loads dist/extension.js only; the panel's
// code (dist/panel.js: the chat view, the webview protocol's schemas) loads when the view
// first resolves, and the runtime (dist/runtime.js: tools, gate, bash grammar, model
// SDKs) on first use. Those two are measured too, for orientation, with no budget.
// (activate() awaiting no network, secrets or scans is a property of
// src/extension/extension.ts, which keeps activate() synchronous.)
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
  // The bundles leave `vscode` external; at load time they only need the module to exist.
  const stub = path.join(dir, 'node_modules', 'vscode');
  fs.mkdirSync(stub, { recursive: true });
  fs.writeFileSync(path.join(stub, 'index.js'), 'module.exports = {};\n');
  const loader = (bundles) => {
    const file = path.join(dir, `load-${bundles.join('-')}.js`);
    fs.writeFileSync(file, bundles.map((b) => `require(${JSON.stringify(path.join(repoRoot, 'dist', `${b}.js`))});\n`).join(''));
    return file;
  };
  const env = { env: { NODE_PATH: path.join(dir, 'node_modules') } };
  const reference = timeCommand(process.execPath, [empty], { runs: 11 });
  const measured = timeCommand(process.execPath, [loader(['extension'])], { ...env, runs: 11 });
  const panel = timeCommand(process.execPath, [loader(['extension', 'panel'])], { ...env, runs: 11 });
  const all = timeCommand(process.execPath, [loader(['extension', 'panel', 'runtime'])], { ...env, runs: 11 });
  fs.rmSync(dir, { recursive: true, force: true });
  const kb = (name) => `${Math.round(fs.statSync(path.join(repoRoot, 'dist', `${name}.js`)).size / 1024)} KB`;
  return [
    {
      reference: `${reference.toFixed(1)} ms`,
      measured: `${measured.toFixed(1)} ms`,
      ratio: measured / reference,
      budget: '≤ 1.3×',
      pass: measured / reference <= 1.3,
      note: `dist/extension.js, ${kb('extension')}: what activation loads`,
    },
    {
      reference: `${reference.toFixed(1)} ms`,
      measured: `${panel.toFixed(1)} ms`,
      ratio: panel / reference,
      budget: 'orientation',
      pass: true,
      note: `+ dist/panel.js (${kb('panel')}), when the view first resolves`,
    },
    {
      reference: `${reference.toFixed(1)} ms`,
      measured: `${all.toFixed(1)} ms`,
      ratio: all / reference,
      budget: 'orientation',
      pass: true,
      note: `+ dist/runtime.js (${kb('runtime')}), on first use (the bash grammar's wasm loads at the first command)`,
    },
  ];
}
