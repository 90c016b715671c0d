#!/usr/bin/env node
// Installs real agent CLIs from the npm registry into the cache folder, pinned, for the
// round-trip tests of agent_claude, agent_pi and agent_codex (test/unit/agentRoundTrip.test.ts).
// Claude Code is pinned to its last release whose package allows Node 20 (it ships a
// native binary). Idempotent.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot } from './paths.mjs';

export const AGENT_PACKAGES = ['@anthropic-ai/claude-code@2.1.197', '@mariozechner/pi-coding-agent@0.73.1', '@openai/codex@0.171.0'];
const dir = path.join(cacheRoot, 'agents', AGENT_PACKAGES.map((p) => p.replace(/[@/]/g, '_')).join('+'));
/** The directory holding the `claude`, `pi` and `codex` executables, for PATH. */
export const agentBinDir = path.join(dir, 'node_modules', '.bin');
const marker = path.join(dir, '.peon-provisioned');

export function provisionAgents({ log = console.log } = {}) {
  const present = () => ['claude', 'pi', 'codex'].every((bin) => fs.existsSync(path.join(agentBinDir, bin)));
  if (fs.existsSync(marker) && present()) return agentBinDir;
  log(`Installing ${AGENT_PACKAGES.join(' ')} into ${dir} (once)…`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true }) + '\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...AGENT_PACKAGES], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  if (!present()) throw new Error(`the agent CLIs installed, but ${agentBinDir} lacks claude, pi or codex`);
  fs.writeFileSync(marker, `${AGENT_PACKAGES.join('\n')}\n`);
  return agentBinDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(`agents: ${provisionAgents()}`);
