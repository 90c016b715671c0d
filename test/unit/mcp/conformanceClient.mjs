#!/usr/bin/env node
// The client the official MCP conformance suite tests (conformance.test.ts): Peon's real
// CLI, as people run it. The suite starts a scenario's server and runs this with the
// server's URL as the last argument (the scenario's name in MCP_CONFORMANCE_SCENARIO, and
// for some a JSON context in MCP_CONFORMANCE_CONTEXT: pre-registration's client ID and
// secret). It configures that server as "conf" in a settings file, lists the tools with
// `peon tools --json` and calls each of the server's with `peon tool conf__<tool>`, under
// --approve all, in a state folder of its own, with BROWSER set to followBrowser.mjs, a
// browser that follows the authorization page back to Peon's loopback redirect.
// Exit 0 when every call succeeded.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(here, '../../../dist/cli.js');
const url = process.argv[process.argv.length - 1];

/** Arguments for the scenarios' tools that take any (tools_call's add_numbers); the others take none. */
const INPUTS = { add_numbers: { a: 2, b: 3 } };
/** The client ID metadata document URL the basic-cimd scenario expects a client to present; used only where the authorization server says it accepts one. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const oauth = context.client_id ? { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) } : { clientMetadataUrl: CLIENT_METADATA_URL };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-conformance-'));
const workspace = path.join(dir, 'workspace');
fs.mkdirSync(workspace);
const config = path.join(dir, 'settings.json');
fs.writeFileSync(config, JSON.stringify({ 'peon.mcp.servers': { conf: { type: 'http', url, oauth } } }));
const env = { ...process.env, PEON_STATE_DIR: path.join(dir, 'state'), BROWSER: `${process.execPath} ${path.join(here, 'followBrowser.mjs')}` };

function peon(args) {
  const r = spawnSync(process.execPath, [cli, ...args, '--config', config, '--workspace', workspace, '--approve', 'all'], { env, encoding: 'utf8' });
  process.stderr.write(r.stderr);
  return r;
}

let failed = false;
try {
  const listed = peon(['tools', '--json']);
  const tools = JSON.parse(listed.stdout).filter((t) => t.name.startsWith('conf__'));
  process.stdout.write(`tools: ${tools.map((t) => t.name).join(', ') || '(none)'}\n`);
  if (listed.status !== 0 || (tools.length === 0 && /MCP server "conf"/.test(listed.stderr))) failed = true;
  for (const tool of tools) {
    const input = INPUTS[tool.name.slice('conf__'.length)] ?? {};
    const called = peon(['tool', tool.name, '--input', JSON.stringify(input)]);
    process.stdout.write(called.stdout);
    const result = JSON.parse(called.stdout.trim().split('\n').pop() ?? '{}');
    if (called.status !== 0 || result.ok !== true) failed = true;
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
