#!/usr/bin/env node
// `npm run package`: a production build packed into dist-vsix/peon-<version>.vsix by
// @vscode/vsce, offline (vsce runs the `vscode:prepublish` production build). The
// bundles carry their dependencies, so no node_modules ship; .vscodeignore leaves out sourcemaps.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.mjs';

const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const outDir = path.join(repoRoot, 'dist-vsix');
const out = path.join(outDir, `peon-${version}.vsix`);
fs.mkdirSync(outDir, { recursive: true });
execFileSync(
  path.join(repoRoot, 'node_modules', '.bin', 'vsce'),
  ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', out],
  { cwd: repoRoot, stdio: 'inherit' },
);
console.log(`${path.relative(repoRoot, out)}: ${(fs.statSync(out).size / 1024).toFixed(1)} KiB`);
