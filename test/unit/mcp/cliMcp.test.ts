// `peon tools` and `peon tool` with MCP servers (DESIGN.md §8), the CLI as a black box:
// server-everything over stdio, streamable HTTP and SSE; a project server that waits
// for --approve all; a server that fails to start (a warning, never a crash); nothing
// left running after the CLI exits.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { sleepers, uniqueTag } from '../../processWatch';
import { CLI, peon, peonTool, waitUntil } from '../cliHarness';
import { tempDir } from '../tools/toolTestContext';
import { everything, fault, mcpPeers, writeJson } from './mcpTestKit';

function config(servers: Record<string, unknown>, settings: Record<string, unknown> = {}): string {
  const file = path.join(tempDir('peon-mcp-cfg-'), 'settings.json');
  writeJson(file, { 'peon.mcp.servers': servers, ...settings });
  return file;
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** server-everything in an HTTP mode on a free port; resolves once it says it listens. */
async function everythingOver(mode: 'streamableHttp' | 'sse'): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [mcpPeers().everything, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const hear = (chunk: Buffer) => {
      said += chunk.toString();
      if (new RegExp(`(listening|running) on port ${port}`).test(said)) resolve();
    };
    child.stdout!.on('data', hear);
    child.stderr!.on('data', hear);
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${said}`)));
  });
  return port;
}

test('peon tools lists the MCP tools with their risk and schema; peon tool calls one through the gate', () => {
  const cfg = config({ everything: everything() });
  const ws = tempDir('peon-mcp-ws-');
  const listed = peon(['tools', '--json', '--config', cfg, '--workspace', ws]);
  expect(listed.code).toBe(0);
  const rows = JSON.parse(listed.stdout) as { name: string; risk: string; inputSchema: { properties: object } }[];
  const echo = rows.find((r) => r.name === 'everything__echo');
  expect(echo).toMatchObject({ risk: 'process', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } });
  expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['read', 'bash', 'everything__get-sum']));
  expect(peonTool('everything__echo', ws, { message: 'hi' }, ['--config', cfg, '--approve', 'all'])).toMatchObject({ ok: true, output: 'Echo: hi', permission: { decision: 'ask', answer: 'approved' } });
  // Without --approve all the call is put to nobody, and denied (peon.permission.default asks).
  expect(peonTool('everything__echo', ws, { message: 'hi' }, ['--config', cfg])).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
});

test('a project server waits for --approve all, said on stderr; approved once, the approval is kept under PEON_STATE_DIR (0600)', () => {
  const ws = tempDir('peon-mcp-ws-');
  writeJson(path.join(ws, '.vscode', 'mcp.json'), { servers: { proj: fault() } });
  const state = tempDir('peon-mcp-state-');
  const env = { PEON_STATE_DIR: state };
  const waiting = peon(['tools', '--json', '--workspace', ws], { env });
  expect(waiting.code).toBe(0);
  expect(waiting.stderr).toMatch(/MCP server "proj" from \.vscode\/mcp\.json waits for approval: .*--approve all/);
  expect((JSON.parse(waiting.stdout) as { name: string }[]).some((r) => r.name.startsWith('proj__'))).toBe(false);
  expect(peonTool('proj__echo', ws, { message: 'x' }, [], { env })).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });

  expect(peonTool('proj__echo', ws, { message: 'approved' }, ['--approve', 'all'], { env })).toMatchObject({ ok: true, output: 'Echo: approved' });
  const trust = path.join(state, 'mcp-trust.json');
  expect(fs.statSync(trust).mode & 0o777).toBe(0o600);
  const later = peon(['tools', '--json', '--workspace', ws], { env });
  expect(later.stderr).not.toMatch(/waits for approval/);
  expect((JSON.parse(later.stdout) as { name: string }[]).map((r) => r.name)).toContain('proj__echo');
});

test('a server that cannot start is a warning on stderr, never a crash; the built-ins stay', () => {
  const cfg = config({ missing: { command: 'no-such-mcp-server-binary' }, stuck: fault('hang-init') }, { 'peon.mcp.startTimeoutSeconds': 1 });
  const ws = tempDir('peon-mcp-ws-');
  const r = peon(['tools', '--config', cfg, '--workspace', ws], { env: {} });
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/MCP server "missing" from your settings did not start: MCP server "missing" could not start: no-such-mcp-server-binary was not found on PATH/);
  expect(r.stderr).toMatch(/MCP server "stuck" from your settings did not start: MCP server "stuck" did not answer initialize within 1 s/);
  expect(r.stdout).toMatch(/^read\s/m);
  const call = peonTool('missing__x', ws, {}, ['--config', cfg]);
  expect(call).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
});

test('nothing a server started outlives the CLI: a grandchild in its own session is gone when peon exits', async () => {
  const pidFile = path.join(tempDir('peon-mcp-pid-'), 'grandchild');
  const { tag } = uniqueTag();
  const cfg = config({ gc: { ...fault('grandchild'), env: { FAULT_PID_FILE: pidFile, FAULT_TAG: tag } } });
  const ws = tempDir('peon-mcp-ws-');
  expect(peonTool('gc__echo', ws, { message: 'x' }, ['--config', cfg, '--approve', 'all'])).toMatchObject({ ok: true });
  expect(Number(fs.readFileSync(pidFile, 'utf8'))).toBeGreaterThan(0); // it did start one
  await waitUntil(() => sleepers(tag).length === 0, 'the grandchild is gone');
});

test('… nor a CLI killed with SIGKILL: the server and its grandchild end with it (the kill-only wrapper)', async () => {
  const { tag } = uniqueTag();
  const cfg = config({ gc: { ...fault('grandchild'), env: { FAULT_TAG: tag } } });
  const ws = tempDir('peon-mcp-ws-');
  const child = spawn(process.execPath, [CLI, 'tool', 'gc__slow', '--workspace', ws, '--config', cfg, '--approve', 'all', '--input', '{}'], { env: { ...process.env, PEON_STATE_DIR: tempDir('peon-state-') }, stdio: 'ignore' });
  await waitUntil(() => sleepers(tag).length === 1, 'the grandchild started');
  child.kill('SIGKILL');
  await waitUntil(() => sleepers(tag).length === 0, 'the grandchild is gone');
});

test('streamable HTTP, and the SSE transport of older servers as the fallback', async () => {
  const [http, sse] = await Promise.all([everythingOver('streamableHttp'), everythingOver('sse')]);
  const cfg = config({ h: { type: 'http', url: `http://127.0.0.1:${http}/mcp` }, s: { type: 'sse', url: `http://127.0.0.1:${sse}/sse` } });
  const ws = tempDir('peon-mcp-ws-');
  expect(peonTool('h__echo', ws, { message: 'over http' }, ['--config', cfg, '--approve', 'all'])).toMatchObject({ ok: true, output: 'Echo: over http' });
  expect(peonTool('s__echo', ws, { message: 'over sse' }, ['--config', cfg, '--approve', 'all'])).toMatchObject({ ok: true, output: 'Echo: over sse' });
}, 60_000);

test('${input:id} in the CLI: from PEON_INPUT_<ID> once, kept under PEON_STATE_DIR (0600); without it the server waits, saying how to give it', () => {
  const cfg = config({ inp: { ...fault('env'), env: { GIVEN: '${input:api-token}' } } });
  const ws = tempDir('peon-mcp-ws-');
  const state = tempDir('peon-mcp-state-');
  const waiting = peon(['tools', '--config', cfg, '--workspace', ws], { env: { PEON_STATE_DIR: state } });
  expect(waiting.stderr).toMatch(/MCP server "inp" from your settings did not start: it needs the input "api-token"\. Give it in the environment \(PEON_INPUT_API_TOKEN\)/);
  const given = peonTool('inp__env', ws, {}, ['--config', cfg, '--approve', 'all'], { env: { PEON_STATE_DIR: state, PEON_INPUT_API_TOKEN: 's3cret' } });
  expect(JSON.parse(given.output ?? '{}')).toMatchObject({ GIVEN: 's3cret' });
  const secrets = path.join(state, 'mcp-secrets.json');
  expect(fs.statSync(secrets).mode & 0o777).toBe(0o600);
  const kept = peonTool('inp__env', ws, {}, ['--config', cfg, '--approve', 'all'], { env: { PEON_STATE_DIR: state } });
  expect(JSON.parse(kept.output ?? '{}')).toMatchObject({ GIVEN: 's3cret' });
});
