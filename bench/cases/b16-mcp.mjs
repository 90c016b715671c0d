// B16: 1,000 calls of `everything__echo` through Peon's MCP layer — ajv validation,
// assessment, the permission gate, Peon's stdio transport, result mapping — against
// the same calls through a bare MCP SDK client on the same server program. Budget ≤ 1.25×.
// As PERF.md asks: the median of 11 runs after a warm-up, each run 1,000 calls through
// each, which goes first alternating from run to run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { provisionMcpServers } from '../../scripts/provision-mcp.mjs';
import { loadTs } from '../../scripts/loadTs.mjs';
import { median } from '../measure.mjs';

export const id = 'B16';
export const title = '1,000 everything__echo calls through Peon\'s MCP layer vs a bare SDK client';

const CALLS = 1000;
const RUNS = 11;
const SETTLE = 200;

export async function run() {
  const core = await loadTs('bench/toolsEntry.ts');
  const { everything } = provisionMcpServers();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b16-'));
  const user = { 'peon.mcp.servers': { everything: { command: process.execPath, args: [everything, 'stdio'] } } };
  const settings = core.resolveSettings({ user, workspace: {} }).values;
  const approve = async () => ({ approved: true });
  const servers = new core.McpServers({ settings, folders: [root], trusted: true, trust: new core.McpTrust(undefined, () => {}), hostEnv: process.env, home: os.homedir(), version: 'bench', hooks: { agent: 'bench', approve, secrets: { get: async () => undefined, set: async () => {}, delete: async () => {} } } });
  const conversation = core.openConversation({ agent: 'bench', folders: [{ path: root }], settings, layers: { user, workspace: {} }, trashDir: fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b16-trash-')), hooks: { approve }, mcp: servers });
  const bare = new Client({ name: 'bench', version: '1' });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));

  const peon = async (i) => {
    const outcome = await conversation.call('everything__echo', { message: `call ${i}` });
    if (!outcome.ok || outcome.output !== `Echo: call ${i}`) throw new Error(`B16: Peon's call ${i} failed: ${JSON.stringify(outcome)}`);
  };
  const sdk = async (i) => {
    const result = await bare.callTool({ name: 'echo', arguments: { message: `call ${i}` } });
    if (result.content[0].text !== `Echo: call ${i}`) throw new Error(`B16: the SDK's call ${i} failed`);
  };
  // Both warmed up first, until the JIT has settled (the first few hundred calls of either run several times slower).
  for (let i = 0; i < 2000; i++) {
    await peon(i);
    await sdk(i);
  }
  const measured = [];
  const reference = [];
  // Whichever side runs right after the other is slower for its first calls (its server process sat idle,
  // its code went cold), so each block is preceded by calls that are not timed.
  const timed = async (fn) => {
    for (let i = 0; i < SETTLE; i++) await fn(i);
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) await fn(i);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  for (let run = 0; run < RUNS; run++) {
    if (run % 2 === 0) {
      measured.push(await timed(peon));
      reference.push(await timed(sdk));
    } else {
      reference.push(await timed(sdk));
      measured.push(await timed(peon));
    }
  }
  await bare.close();
  await servers.dispose();
  fs.rmSync(root, { recursive: true, force: true });
  const ratio = median(measured) / median(reference);
  return {
    reference: `${median(reference).toFixed(0)} ms (${(median(reference) / CALLS).toFixed(3)} ms/call)`,
    measured: `${median(measured).toFixed(0)} ms (${(median(measured) / CALLS).toFixed(3)} ms/call)`,
    ratio,
    budget: '≤ 1.25×',
    pass: ratio <= 1.25,
    note: 'stdio, server-everything 2026.8.31',
  };
}
