// McpServers against real servers: server-everything and server-filesystem from the
// npm registry, and the tests' own fault server for SECURITY.md's MCP cases.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { sleepers, uniqueTag } from '../../processWatch';
import { openConversation, type Conversation } from '../../../src/core/conversation/conversation';
import type { McpServers } from '../../../src/core/mcp/mcpServers';
import type { Approver } from '../../../src/core/permissions/approvals';
import { resolveSettings } from '../../../src/core/settings';
import { tempDir, writeFiles } from '../tools/toolTestContext';
import { waitUntil } from '../cliHarness';
import { alive, everything, fault, mcpKit, mcpPeers, type KitOptions } from './mcpTestKit';

const open: McpServers[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.dispose()));
});

function session(options: KitOptions & { approveCalls?: Approver; rules?: Record<string, unknown> } = {}): { conversation: Conversation; servers: McpServers; root: string; kit: ReturnType<typeof mcpKit> } {
  const root = options.root ?? tempDir('peon-mcp-ws-');
  const kit = mcpKit({ ...options, root });
  open.push(kit.servers);
  const user = { ...(options.rules ? { 'peon.permission.rules': options.rules } : {}) };
  const conversation = openConversation({
    agent: 'test',
    folders: [{ path: root }],
    settings: resolveSettings({ user: { ...user, ...options.settings }, workspace: {} }).values,
    layers: { user, workspace: {} },
    trashDir: tempDir('peon-trash-'),
    hooks: { approve: options.approveCalls ?? (async () => ({ approved: true })) },
    mcp: kit.servers,
  });
  return { conversation, servers: kit.servers, root, kit };
}

const status = (servers: McpServers, name: string) => servers.statuses().find((s) => s.name === name)!;

test('server-everything over stdio: its tools join the registry as <server>__<tool>, and echo runs through the gate (peon.permission.default asks)', async () => {
  const asked: string[] = [];
  const { conversation, servers } = session({ user: { everything: everything() }, approveCalls: async (r) => (asked.push(`${r.tool}:${r.assessment.summary.kind}:${r.permission.source}`), { approved: true }) });
  const outcome = await conversation.call('everything__echo', { message: 'hello from Peon' });
  expect(outcome).toMatchObject({ ok: true, output: 'Echo: hello from Peon', risk: 'process', permission: { decision: 'ask', answer: 'approved' } });
  expect(asked).toEqual(['everything__echo:mcp:peon.permission.default: ask (built in)']);
  expect(status(servers, 'everything')).toMatchObject({ state: 'ready' });
  expect(conversation.toolNames).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'read', 'bash']));
  // The card's summary: server › tool, the input in one line.
  const tool = conversation.tools.get('everything__echo')!;
  const assessment = await tool.assess(tool.parse({ message: 'hi' }), undefined as never);
  expect(assessment.summary).toMatchObject({ kind: 'mcp', server: 'everything', tool: 'echo', line: 'message="hi"' });
  // The server's schema is checked before anything is sent: the model gets an error it can act on.
  const bad = await conversation.call('everything__echo', { message: 42 });
  expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(bad.ok ? '' : bad.error.message).toMatch(/message: must be string/);
  // Rules by tool name apply to MCP tools as to built-ins.
  const denied = session({ user: { everything: everything() }, rules: { everything__echo: 'deny' } });
  expect(await denied.conversation.call('everything__echo', { message: 'x' })).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
  // structuredContent only (no text block is the model's): given as JSON.
  const sum = await conversation.call('everything__get-sum', { a: 2, b: 3 });
  expect(sum).toMatchObject({ ok: true });
  expect(sum.ok && sum.output).toMatch(/5/);
});

test('server-filesystem serves the workspace folders, offered as roots', async () => {
  const root = tempDir('peon-mcp-fs-');
  writeFiles(root, { 'notes/todo.md': 'buy milk\n' });
  const { conversation, servers } = session({ root, user: { fs: { command: process.execPath, args: [mcpPeers().filesystem] } } });
  // The server asks for the roots once initialized and applies them on its own time: it says so on stderr.
  await servers.ready(new AbortController().signal);
  await waitUntil(() => /allowed directories from MCP roots: 1 valid/.test(status(servers, 'fs').stderr ?? ''), 'the server applied the roots');
  const read = await conversation.call('fs__read_text_file', { path: path.join(fs.realpathSync(root), 'notes/todo.md') });
  expect(read, JSON.stringify(read)).toMatchObject({ ok: true, output: expect.stringContaining('buy milk') });
  const outside = await conversation.call('fs__read_text_file', { path: '/etc/hostname' });
  expect(outside).toMatchObject({ ok: false, error: { code: 'io_error' } });
  expect(outside.ok ? '' : outside.error.message).toMatch(/outside allowed directories|Access denied/i);
});

test('a server killed mid-call fails that call within about a second, with its stderr tail; the next call starts it again', async () => {
  const { conversation, servers } = session({ user: { fault: fault() } });
  await servers.ready(new AbortController().signal);
  const pid = servers.pids()[0]!;
  const call = conversation.call('fault__slow', {});
  await waitUntil(() => (status(servers, 'fault').stderr ?? '').includes('slow-started'), 'the slow call reached the server');
  const killed = performance.now();
  process.kill(pid, 'SIGKILL');
  const outcome = await call;
  expect(performance.now() - killed).toBeLessThan(1500);
  expect(outcome).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  expect(outcome.ok ? '' : outcome.error.message).toMatch(/MCP server "fault" stopped during slow: the server was killed by SIGKILL[\s\S]*slow-started/);
  expect(status(servers, 'fault')).toMatchObject({ state: 'failed' });
  expect(await conversation.call('fault__echo', { message: 'again' })).toMatchObject({ ok: true, output: 'Echo: again' });
  expect(servers.pids()[0]).not.toBe(pid);
});

test('a server that crashes during a call: the call fails at once with why; the exit code and stderr are in the status', async () => {
  const { conversation, servers } = session({ user: { fault: fault() } });
  const outcome = await conversation.call('fault__crash', {});
  expect(outcome).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  expect(outcome.ok ? '' : outcome.error.message).toMatch(/exited with code 3[\s\S]*crashing on purpose/);
  expect(status(servers, 'fault')).toMatchObject({ state: 'failed', detail: 'the server exited with code 3', stderr: expect.stringContaining('crashing on purpose') });
});

test('initialize never answered: the start fails at its own deadline, naming the server and the setting; nothing is left running', async () => {
  const { servers } = session({ user: { stuck: fault('hang-init') }, settings: { 'peon.mcp.startTimeoutSeconds': 1 } });
  const kit = servers as McpServers;
  const ready = kit.ready(new AbortController().signal);
  await waitUntil(() => kit.pids().length > 0 || status(kit, 'stuck').state !== 'starting', 'the server was spawned');
  const pid = kit.pids()[0];
  await ready;
  expect(status(kit, 'stuck')).toMatchObject({ state: 'failed', detail: expect.stringMatching(/MCP server "stuck" did not answer initialize within 1 s \(peon.mcp.startTimeoutSeconds\)[\s\S]*fault server: started/) });
  if (pid !== undefined) await waitUntil(() => !alive(pid), 'the stuck server is gone');
});

test('non-JSON lines on stdout are skipped and noted in the stderr tail; calls go on', async () => {
  const { conversation, servers } = session({ user: { noisy: fault('banner') } });
  expect(await conversation.call('noisy__echo', { message: 'through the noise' })).toMatchObject({ ok: true, output: 'Echo: through the noise' });
  expect(status(servers, 'noisy').stderr).toMatch(/stdout line that is not JSON-RPC, ignored: Server ready!/);
});

test('a 50 MB result fails that call as too_large and the server is restarted; a result over the output limit is cut in the middle', async () => {
  const { conversation, servers } = session({ user: { big: fault() } });
  const huge = await conversation.call('big__big', { mb: 50 });
  expect(huge).toMatchObject({ ok: false, error: { code: 'too_large' } });
  expect(huge.ok ? '' : huge.error.message).toMatch(/over 16 MB \(peon.mcp.maxMessageMB\)[\s\S]*restarted/);
  expect(await conversation.call('big__echo', { message: 'still here' })).toMatchObject({ ok: true, output: 'Echo: still here' });
  const large = await conversation.call('big__big', { mb: 1 });
  expect(large).toMatchObject({ ok: true, data: { truncated: true } });
  expect(large.ok && large.output.length).toBeLessThanOrEqual(100_000);
  expect(large.ok && large.output).toMatch(/characters cut by Peon's output limit/);
  expect(status(servers, 'big').state).toBe('ready');
});

test('isError is an error result the model can act on, with the server\'s text', async () => {
  const { conversation } = session({ user: { fault: fault() } });
  expect(await conversation.call('fault__fail', {})).toMatchObject({ ok: false, error: { code: 'io_error', message: 'fault › fail reported an error: the disk is on fire' } });
});

test('Stop cancels a call at once and tells the server (notifications/cancelled)', async () => {
  const root = tempDir('peon-mcp-ws-');
  const kit = mcpKit({ root, user: { fault: fault() } });
  open.push(kit.servers);
  await kit.servers.ready(new AbortController().signal);
  const tool = kit.servers.tools().find((t) => t.name === 'fault__slow')!;
  const controller = new AbortController();
  const { makeContext } = await import('../tools/toolTestContext');
  const running = tool.execute({}, makeContext(root, { signal: controller.signal }), undefined as never);
  await waitUntil(() => (status(kit.servers, 'fault').stderr ?? '').includes('slow-started'), 'the call reached the server');
  controller.abort();
  await expect(running).rejects.toMatchObject({ code: 'cancelled' });
  await waitUntil(() => /cancelled request \d+/.test(status(kit.servers, 'fault').stderr ?? ''), 'the server heard the cancellation');
});

test('a server gets a minimal environment plus its own, never the host\'s secrets', async () => {
  const { conversation } = session({ user: { fault: { ...fault('env'), env: { GIVEN: 'yes' } } }, env: { ...process.env, ANTHROPIC_API_KEY: 'sk-host-secret' } });
  const outcome = await conversation.call('fault__env', {});
  const env = JSON.parse(outcome.ok ? outcome.output : '{}') as Record<string, string>;
  expect(env.GIVEN).toBe('yes');
  expect(env.PATH).toBe(process.env.PATH);
  expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  expect(Object.keys(env).filter((k) => !['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'GIVEN', 'PEON_PROCESS_RUN', 'PWD'].includes(k))).toEqual([]);
});

test('names: a tool named like a built-in cannot shadow it; two names equal in their first 64 characters become two stable names, each calling its own tool', async () => {
  const { conversation, servers } = session({ user: { x: fault('long-names') } });
  await conversation.call('x__echo', { message: 'warm up' });
  const names = servers.tools().map((t) => t.name);
  expect(names).not.toContain('read');
  const long = names.filter((n) => n.startsWith('x__aaaa'));
  expect(long).toHaveLength(2);
  for (const name of long) expect(name.length).toBeLessThanOrEqual(64);
  expect(new Set(long).size).toBe(2);
  const outputs = await Promise.all(long.map(async (name) => (await conversation.call(name, {})) as { output?: string }));
  expect(outputs.map((o) => o.output).sort()).toEqual([`called ${'a'.repeat(70)}_first`, `called ${'a'.repeat(70)}_second`]);
  // The built-in `read` is still the built-in; the server's is there under its own name.
  expect(conversation.tools.get('read')!.risk).toBe('read_only');
  expect(names.some((n) => /^x__read$/.test(n))).toBe(true);
  // Stable: another session gives the same names.
  const again = session({ user: { x: fault('long-names') } });
  await again.servers.ready(new AbortController().signal);
  expect(again.servers.tools().map((t) => t.name).sort()).toEqual([...names].sort());
});

test('a server that starts a grandchild in a new session: stopping it leaves nothing behind', async () => {
  const dir = tempDir('peon-mcp-pid-');
  const pidFile = path.join(dir, 'grandchild');
  const { tag } = uniqueTag();
  const { servers } = session({ user: { gc: { ...fault('grandchild'), env: { FAULT_PID_FILE: pidFile, FAULT_TAG: tag } } } });
  await servers.ready(new AbortController().signal);
  await waitUntil(() => sleepers(tag).length === 1, 'the grandchild started');
  const server = servers.pids()[0]!;
  await servers.dispose();
  expect(alive(server)).toBe(false);
  await waitUntil(() => sleepers(tag).length === 0, 'the grandchild is gone');
});

test('tools/list follows its cursor page by page, stops on a server that never ends, and hears list_changed', async () => {
  const paged = session({ user: { p: fault('paged') } });
  await paged.servers.ready(new AbortController().signal);
  expect(paged.servers.tools().map((t) => t.name)).toEqual(['p__big', 'p__crash', 'p__echo', 'p__fail', 'p__slow']);
  const endless = session({ user: { e: fault('endless') } });
  await endless.servers.ready(new AbortController().signal);
  expect(status(endless.servers, 'e')).toMatchObject({ state: 'ready', tools: [] });
  const grows = session({ user: { g: fault('grows') } });
  expect(await grows.conversation.call('g__grow', {})).toMatchObject({ ok: true });
  await waitUntil(() => grows.servers.tools().some((t) => t.name === 'g__grown'), 'the new tool arrived');
  // The next call rebuilds the registry with it.
  expect(await grows.conversation.call('g__grown', {})).toMatchObject({ ok: true, output: 'called grown' });
});

test('each call has peon.mcp.timeoutSeconds; time on its approval card does not count', async () => {
  const slowCard: Approver = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500)); // longer than the call's whole timeout
    return { approved: true };
  };
  const { conversation, servers } = session({ user: { fault: fault() }, settings: { 'peon.mcp.timeoutSeconds': 1 }, approveCalls: slowCard });
  expect(await conversation.call('fault__echo', { message: 'after a slow card' })).toMatchObject({ ok: true, output: 'Echo: after a slow card' });
  const started = performance.now();
  const slow = await conversation.call('fault__slow', {});
  expect(slow).toMatchObject({ ok: false, error: { code: 'timeout', message: expect.stringMatching(/MCP server "fault" did not answer slow in time/) } });
  expect(performance.now() - started).toBeGreaterThan(1500); // the card, then the call's second
  await waitUntil(() => /cancelled request \d+/.test(status(servers, 'fault').stderr ?? ''), 'the server was told the call was given up');
});
