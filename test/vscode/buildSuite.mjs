// Bundles the in-host integration suite (test/integration/*.ts) into out/integration/,
// one file per test module, `vscode` and `mocha` left to the host and node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { repoRoot } from '../../scripts/paths.mjs';

export const suiteOutDir = path.join(repoRoot, 'out', 'integration');
/** The folder the suite opens when VS Code starts it from launch.json or test-electron. */
export const suiteWorkspace = path.join(repoRoot, 'out', 'test-workspace');

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
    // The suite drives the core too (the loop, tools): the same loaders as esbuild.mjs.
    loader: { '.md': 'text' },
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  // The extension's lazily loaded runtime (src/extension/runtime.ts) is required from
  // beside the code that asks for it: the suite's modules find it where dist/ has it for
  // the extension.
  // runtime.js requires the page worker's bundle beside it (esbuild.mjs, workerBeside).
  for (const file of ['runtime.js', 'runtime.js.map', 'markdownWorker.js']) fs.copyFileSync(path.join(repoRoot, 'dist', file), path.join(suiteOutDir, file));
  return path.join(suiteOutDir, 'index.js');
}

/** Builds the extension and the suite, and lays out the suite's workspace folder. */
export async function buildAll() {
  execFileSync(process.execPath, ['esbuild.mjs', '--quiet'], { cwd: repoRoot, stdio: 'inherit' });
  fs.rmSync(suiteWorkspace, { recursive: true, force: true });
  fs.mkdirSync(suiteWorkspace, { recursive: true });
  fs.writeFileSync(path.join(suiteWorkspace, 'README.md'), '# A workspace for the Peon integration suite\n');
  return { testsEntry: await buildIntegrationSuite(), workspace: suiteWorkspace };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { testsEntry } = await buildAll();
  console.log(`Integration suite: ${path.relative(repoRoot, testsEntry)}`);
}
