// A tool session over a workspace for the benchmarks, every ask approved, and a call
// helper that fails loudly: a benchmark of an error is not a benchmark.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTs } from '../scripts/loadTs.mjs';
import { repoRoot } from '../scripts/paths.mjs';

const core = await loadTs('bench/toolsEntry.ts');
export const { forgetDigest } = core;

/** The ripgrep the tools use (dist/bin/rg after a build, else node_modules, else PATH). */
export const ripgrep = core.locateRipgrep({ bundled: [path.join(repoRoot, 'dist', 'bin', 'rg')] });

export function toolSession(root, { ripgrep, settings = {}, web, sandbox } = {}) {
  const trash = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-bench-trash-'));
  const ctx = {
    signal: new AbortController().signal,
    workspace: new core.Workspace([{ path: root }]),
    timeoutMs: 10 * 60_000,
    limits: core.DEFAULT_LIMITS,
    snapshots: new core.FileSnapshots(),
    trash: new core.Trash(trash),
    agent: 'bench',
    ripgrep,
    settings,
    ...(web ? { web } : {}),
    ...(sandbox ? { sandbox } : {}),
  };
  const session = new core.CallPipeline(core.builtinRegistry(), ctx, async () => ({ approved: true }));
  return {
    async call(tool, input) {
      const outcome = await session.call(tool, input);
      if (!outcome.ok) throw new Error(`${tool} ${JSON.stringify(input)} failed: ${outcome.error.code}: ${outcome.error.message}`);
      return outcome;
    },
  };
}
