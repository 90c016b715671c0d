// B19: bash in the sandbox against the same call unsandboxed (DESIGN.md §9), both through
// the bash tool: `true`, where bubblewrap's setup is all there is (≤ 1.5×), and a selective
// `rg -n` over the Go tree, where the command's own work dominates (≤ 1.1×). The probe
// runs in the warm-up, as it does once per conversation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCorpora } from '../corpora.mjs';
import { ratioRow, timePair } from '../measure.mjs';
import { loadTs } from '../../scripts/loadTs.mjs';
import { ripgrep, toolSession } from '../toolHarness.mjs';

export const id = 'B19';
export const title = 'bash in the sandbox vs the same unsandboxed';

const SELECTIVE = 'func \\(\\w+ \\*\\w+\\) Close\\(\\) error';

function sandboxFor(core, dir, mode, env) {
  return new core.CommandSandbox({ settings: () => ({ mode, network: false, required: false }), folders: [dir], env });
}

export async function run() {
  const { goTree } = await ensureCorpora({ log: () => {} });
  if (!ripgrep) throw new Error('no ripgrep found for B19');
  const core = await loadTs('bench/toolsEntry.ts');
  // An empty HOME: this machine's login dotfiles (a pyenv rehash, say) would time themselves, not the sandbox.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b19-home-'));
  const env = { ...process.env, HOME: home };
  const boxed = sandboxFor(core, goTree, 'workspace-write', env);
  const plain = sandboxFor(core, goTree, 'off', env);
  const inBox = toolSession(goTree, { sandbox: boxed });
  const outside = toolSession(goTree, { sandbox: plain });
  const first = await inBox.call('bash', { command: 'true' });
  if (first.data?.sandbox !== 'sandboxed') throw new Error(`B19 needs a working sandbox; the command ran ${first.data?.sandbox}`);
  const rows = [];
  const cases = [
    ['`true`', 'true', 1.5],
    ['selective `rg -n` over the Go tree', `${ripgrep} -n '${SELECTIVE}' .`, 1.1],
  ];
  try {
    for (const [what, command, budget] of cases) {
      const [measured, reference] = await timePair(() => inBox.call('bash', { command }), () => outside.call('bash', { command }), { runs: 21 });
      rows.push({ id: 'B19', title: `bash ${what}, sandboxed vs unsandboxed`, ...ratioRow(measured, reference, budget) });
    }
  } finally {
    boxed.dispose();
    plain.dispose();
    fs.rmSync(home, { recursive: true, force: true });
  }
  return rows;
}
