#!/usr/bin/env node
// Installs the real Claude Code CLI from the npm registry into the cache folder, pinned
// to the last release whose package still runs beside Node 20, for the round-trip test
// of agent_claude (test/unit/agentRoundTrip.test.ts). Idempotent.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot } from './paths.mjs';

export const CLAUDE_CODE_VERSION = '2.1.197';
const dir = path.join(cacheRoot, `claude-code-${CLAUDE_CODE_VERSION}`);
/** The directory holding the `claude` executable, for PATH. */
export const claudeBinDir = path.join(dir, 'node_modules', '.bin');
const marker = path.join(dir, '.peon-provisioned');

export function provisionAgents({ log = console.log } = {}) {
  if (fs.existsSync(marker) && fs.existsSync(path.join(claudeBinDir, 'claude'))) return claudeBinDir;
  log(`Installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${dir} (once)…`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true }) + '\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (!fs.existsSync(path.join(claudeBinDir, 'claude'))) throw new Error(`claude-code installed but ${claudeBinDir}/claude is missing`);
  fs.writeFileSync(marker, `${CLAUDE_CODE_VERSION}\n`);
  return claudeBinDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(`claude: ${provisionAgents()}`);
