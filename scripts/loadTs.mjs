// Loads a TypeScript module from src/ in a plain Node script, bundled by esbuild in memory.
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from './paths.mjs';

export async function loadTs(relativePath) {
  const file = path.join(repoRoot, relativePath);
  const { outputFiles } = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    external: ['vscode'],
    loader: { '.md': 'text' },
    mainFields: ['module', 'main'],
  });
  const module = { exports: {} };
  // The CommonJS wrapper Node gives a module, __filename and __dirname included.
  new Function('module', 'exports', 'require', '__filename', '__dirname', outputFiles[0].text)(module, module.exports, createRequire(file), file, path.dirname(file));
  return module.exports;
}
