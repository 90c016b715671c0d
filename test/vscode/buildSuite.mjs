// Bundles the in-host integration suite (test/integration/*.ts) into out/integration/,
// one file per test module, `vscode` and `mocha` left to the host and node_modules.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from '../../scripts/paths.mjs';

export const suiteOutDir = path.join(repoRoot, 'out', 'integration');

export async function buildIntegrationSuite() {
  const sourceDir = path.join(repoRoot, 'test', 'integration');
  const entryPoints = fs
    .readdirSync(sourceDir)
    .filter((f) => f === 'index.ts' || f.endsWith('.test.ts'))
    .map((f) => path.join(sourceDir, f));
  fs.rmSync(suiteOutDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints,
    outdir: suiteOutDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return path.join(suiteOutDir, 'index.js');
}
