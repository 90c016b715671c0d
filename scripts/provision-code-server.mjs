#!/usr/bin/env node
// Installs a pinned code-server (a real VS Code: workbench + Node extension host)
// into the cache folder. Idempotent: returns at once when the pinned version is there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CODE_SERVER_VERSION, codeServerDir, codeServerEntry } from './paths.mjs';
import { ensureSystemPackages } from './system-deps.mjs';

// code-server's nested @vscode/ripgrep downloads rg from GitHub in its postinstall;
// it first looks in this cache, where a tarball of Debian's rg satisfies it offline.
const NESTED_RIPGREP = { pkgVersion: '1.15.11', tag: 'v13.0.0-10' };

const marker = path.join(codeServerDir, '.peon-provisioned');

export function codeServerReady() {
  return fs.existsSync(marker) && fs.existsSync(codeServerEntry);
}

function seedRipgrepCache(tmpDir) {
  const cacheDir = path.join(tmpDir, `vscode-ripgrep-cache-${NESTED_RIPGREP.pkgVersion}`);
  const tarball = path.join(cacheDir, `ripgrep-${NESTED_RIPGREP.tag}-x86_64-unknown-linux-musl.tar.gz`);
  if (fs.existsSync(tarball)) return;
  const rg = execFileSync('which', ['rg'], { encoding: 'utf8' }).trim();
  const stage = fs.mkdtempSync(path.join(tmpDir, 'peon-rg-'));
  fs.copyFileSync(rg, path.join(stage, 'rg'));
  fs.chmodSync(path.join(stage, 'rg'), 0o755);
  fs.mkdirSync(cacheDir, { recursive: true });
  execFileSync('tar', ['-czf', tarball, '-C', stage, 'rg']);
  fs.rmSync(stage, { recursive: true, force: true });
}

export function provisionCodeServer({ log = console.log } = {}) {
  if (codeServerReady()) return codeServerEntry;
  ensureSystemPackages(['ripgrep', 'libkrb5-dev', 'pkg-config']);
  log(`Installing code-server ${CODE_SERVER_VERSION} into ${codeServerDir} (about two minutes, once)…`);
  fs.mkdirSync(codeServerDir, { recursive: true });
  const tmpDir = os.tmpdir();
  seedRipgrepCache(tmpDir);
  fs.writeFileSync(path.join(codeServerDir, 'package.json'), JSON.stringify({ private: true }) + '\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: codeServerDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_unsafe_perm: 'true', npm_config_yes: 'true', TMPDIR: tmpDir },
  });
  if (!fs.existsSync(codeServerEntry)) throw new Error(`code-server installed but ${codeServerEntry} is missing`);
  fs.writeFileSync(marker, `${CODE_SERVER_VERSION}\n`);
  return codeServerEntry;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const entry = provisionCodeServer();
  console.log(`code-server ${CODE_SERVER_VERSION}: ${entry}`);
}
