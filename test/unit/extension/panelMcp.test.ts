// The panel's MCP servers (panelMcp.ts) over real McpServers and the tests' fault server:
// made on first use only, the section's message from the statuses, the buttons (start,
// approve, restart, disable and enable, a tool's toggle) kept per workspace, a card
// again after a denial, the set made anew only when what its servers start from changed,
// every process stopped on dispose, and the "server › tool" a tool card reads.
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { McpServers } from '../../../src/core/mcp/mcpServers';
import type { ApprovalSummary } from '../../../src/core/tools/contract';
import type { Approver } from '../../../src/core/permissions/approvals';
import { resolveSettings, type SettingValues } from '../../../src/core/settings';
import { PanelMcp, type NameList } from '../../../src/extension/panelMcp';
import type { HostMessage } from '../../../src/shared/messages';
import { parseHostMessage } from '../../../src/shared/messages';
import { waitUntil } from '../cliHarness';
import { alive, fault, mcpKit, writeJson } from '../mcp/mcpTestKit';
import { tempDir } from '../tools/toolTestContext';

type McpMessage = Extract<HostMessage, { type: 'mcp' }>;
const panels: PanelMcp[] = [];
afterEach(async () => {
  await Promise.all(panels.splice(0).map((p) => p.dispose()));
});

function names(): NameList & { value: string[] } {
  const list = { value: [] as string[], get: () => list.value, set: async (n: readonly string[]) => void (list.value = [...n]) };
  return list;
}

function panel(options: { user?: Record<string, unknown>; root?: string; approve?: Approver; maxTools?: number } = {}) {
  const root = options.root ?? tempDir('peon-mcp-panel-');
  let settings: SettingValues = resolveSettings({ user: { 'peon.mcp.servers': options.user ?? {}, ...(options.maxTools ? { 'peon.mcp.maxTools': options.maxTools } : {}) }, workspace: {} }).values;
  const posted: McpMessage[] = [];
  const warnings: string[] = [];
  const made: McpServers[] = [];
  const replaced: (McpServers | undefined)[] = [];
  const cards: ApprovalSummary[] = [];
  const disabledServers = names();
  const disabledTools = names();
  const mcp = new PanelMcp(
    (m) => {
      // What the webview receives is what it validates.
      expect(parseHostMessage(m).ok).toBe(true);
      if (m.type === 'mcp') posted.push(m);
    },
    {
      open: (hooks) => {
        const { servers } = mcpKit({ root, user: settings['peon.mcp.servers'] as Record<string, unknown>, approve: async (r, s) => (cards.push(r.assessment.summary), options.approve ? options.approve(r, s) : { approved: true }), hooks });
        made.push(servers);
        return servers;
      },
      settings: () => settings,
      disabledServers,
      disabledTools,
      onReplaced: (servers) => replaced.push(servers),
      warn: (text) => warnings.push(text),
    },
    true,
  );
  panels.push(mcp);
  return {
    mcp,
    posted,
    last: () => posted.at(-1)!,
    warnings,
    made,
    replaced,
    cards,
    disabledServers,
    disabledTools,
    setSettings: (user: Record<string, unknown>) => (settings = resolveSettings({ user, workspace: {} }).values),
    settings: () => settings,
  };
}

const server = (m: McpMessage, name: string) => m.servers.find((s) => s.name === name)!;

test('nothing is made until a chat needs it; then the section lists the server not started, and Start now makes it ready with its tools', async () => {
  const p = panel({ user: { fault: fault() } });
  expect(p.made).toHaveLength(0);
  expect(p.mcp.status()).toEqual({ type: 'mcp', servers: [], problems: [], enabledTools: 0, maxTools: 64 });
  const servers = p.mcp.servers()!;
  expect(p.mcp.servers()).toBe(servers);
  expect(p.made).toHaveLength(1);
  expect(server(p.mcp.status(), 'fault')).toMatchObject({ state: 'stopped', source: 'user', project: false, tools: [], disabled: false });
  expect(servers.pids()).toEqual([]);

  await p.mcp.start();
  const ready = server(p.last(), 'fault');
  expect(ready.state).toBe('ready');
  expect(ready.launch).toContain('faultServer.mjs');
  expect(ready.tools.map((t) => [t.name, t.tool, t.enabled])).toEqual([
    ['fault__big', 'big', true],
    ['fault__crash', 'crash', true],
    ['fault__echo', 'echo', true],
    ['fault__fail', 'fail', true],
    ['fault__slow', 'slow', true],
  ]);
  expect(p.last()).toMatchObject({ enabledTools: 5, maxTools: 64 });
});

test("a tool turned off leaves the model's tools and is kept for the workspace; on again, it is back", async () => {
  const p = panel({ user: { fault: fault() }, maxTools: 3 });
  const servers = p.mcp.servers()!;
  await p.mcp.start();
  // Five enabled, more than peon.mcp.maxTools: the section's warning counts them.
  expect(p.last()).toMatchObject({ enabledTools: 5, maxTools: 3 });
  await p.mcp.tool('fault__big', false);
  await p.mcp.tool('fault__slow', false);
  expect(p.disabledTools.value).toEqual(['fault__big', 'fault__slow']);
  expect(servers.tools().map((t) => t.name)).toEqual(['fault__crash', 'fault__echo', 'fault__fail']);
  expect(p.last().enabledTools).toBe(3);
  expect(server(p.last(), 'fault').tools.filter((t) => !t.enabled).map((t) => t.name)).toEqual(['fault__big', 'fault__slow']);
  await p.mcp.tool('fault__big', true);
  expect(p.disabledTools.value).toEqual(['fault__slow']);
  expect(servers.tools().map((t) => t.name)).toContain('fault__big');
  // A name no server has is ignored, said in the log.
  await p.mcp.tool('other__thing', false);
  expect(p.disabledTools.value).toEqual(['fault__slow']);
  expect(p.warnings.at(-1)).toMatch(/Ignored turning the MCP tool "other__thing" off/);
});

test('Disable stops the server and keeps it off for the workspace (before a start too); Enable starts it again', async () => {
  const p = panel({ user: { fault: fault() } });
  const servers = p.mcp.servers()!;
  await p.mcp.start();
  const pid = servers.pids()[0]!;
  await p.mcp.server('fault', 'disable');
  expect(p.disabledServers.value).toEqual(['fault']);
  expect(server(p.last(), 'fault')).toMatchObject({ state: 'disabled', disabled: true, tools: [] });
  expect(servers.tools()).toEqual([]);
  await waitUntil(() => !alive(pid), 'the disabled server exited');
  await p.mcp.server('fault', 'enable');
  expect(p.disabledServers.value).toEqual([]);
  expect(server(p.last(), 'fault')).toMatchObject({ state: 'ready', disabled: false });

  // Turned off before anything started: it reads disabled, and the next start leaves it so.
  const q = panel({ user: { fault: fault() } });
  q.mcp.servers();
  await q.mcp.server('fault', 'disable');
  expect(server(q.mcp.status(), 'fault')).toMatchObject({ state: 'disabled', disabled: true });
  await q.mcp.start();
  expect(server(q.last(), 'fault').state).toBe('disabled');
  expect(q.mcp.servers()!.pids()).toEqual([]);
});

test("a project server denied on its card waits; the section's Approve puts the card up again, and approved it starts", async () => {
  const root = tempDir('peon-mcp-panel-proj-');
  writeJson(path.join(root, '.vscode', 'mcp.json'), { servers: { proj: fault() } });
  let answer = false;
  const p = panel({ root, approve: async () => ({ approved: answer }) });
  p.mcp.servers();
  await p.mcp.start();
  expect(server(p.last(), 'proj')).toMatchObject({ state: 'needs-approval', project: true, source: '.vscode/mcp.json' });
  expect(p.cards.map((c) => c.kind)).toEqual(['mcp-server']);
  // Start now again does not ask again this session…
  await p.mcp.start();
  expect(p.cards).toHaveLength(1);
  // …the Approve button does.
  answer = true;
  await p.mcp.server('proj', 'approve');
  expect(p.cards.map((c) => c.kind)).toEqual(['mcp-server', 'mcp-server']);
  expect(server(p.last(), 'proj')).toMatchObject({ state: 'ready', tools: expect.arrayContaining([expect.objectContaining({ name: 'proj__echo' })]) });
  // An unknown server is ignored, said in the log.
  await p.mcp.server('nope', 'restart');
  expect(p.warnings.at(-1)).toMatch(/Ignored "restart" for the MCP server "nope"/);
});

test('Restart gives the server a new process; the statuses carry a failed start with its stderr', async () => {
  const p = panel({ user: { fault: fault(), broken: { command: process.execPath, args: ['-e', 'process.stderr.write("cannot start: no config\\n"); process.exit(2)'] } } });
  const servers = p.mcp.servers()!;
  await p.mcp.start();
  const before = servers.pids()[0]!;
  await p.mcp.server('fault', 'restart');
  expect(server(p.last(), 'fault').state).toBe('ready');
  expect(servers.pids()).toHaveLength(1);
  expect(servers.pids()[0]).not.toBe(before);
  const broken = server(p.last(), 'broken');
  expect(broken.state).toBe('failed');
  // Why, in a line; its stderr apart (the section shows it collapsed).
  expect(broken.detail).toBe('MCP server "broken" stopped during initialize: the server exited with code 2.');
  expect(broken.stderr).toContain('cannot start: no config');
});

test('settings: only what the servers start from makes the set anew (the old one stopped); trust does too; maxTools is posted again', async () => {
  const p = panel({ user: { fault: fault() } });
  const first = p.mcp.servers()!;
  await p.mcp.start();
  const pid = first.pids()[0]!;
  p.setSettings({ 'peon.mcp.servers': { fault: fault() }, 'peon.mcp.maxTools': 2, 'peon.mcp.timeoutSeconds': 5 });
  p.mcp.reconsider(p.settings(), true);
  expect(p.made).toHaveLength(1);
  expect(p.last().maxTools).toBe(2);
  // A changed server configuration: a new set, given to the chat, the old one's process stopped.
  p.setSettings({ 'peon.mcp.servers': { fault: fault('banner') } });
  p.mcp.reconsider(p.settings(), true);
  expect(p.made).toHaveLength(2);
  expect(p.replaced).toEqual([p.made[1]]);
  expect(server(p.last(), 'fault').state).toBe('stopped');
  await waitUntil(() => !alive(pid), 'the old set stopped its server');
  // Trust withdrawn: made anew too.
  p.mcp.reconsider(p.settings(), false);
  expect(p.made).toHaveLength(3);
});

test('not made yet, a change makes nothing; dispose stops every server, those of replaced sets too', async () => {
  const idle = panel({ user: { fault: fault() } });
  idle.setSettings({ 'peon.mcp.servers': {} });
  idle.mcp.reconsider(idle.settings(), true);
  idle.mcp.replace();
  expect(idle.made).toHaveLength(0);

  const p = panel({ user: { fault: fault() } });
  p.mcp.servers();
  await p.mcp.start();
  const old = p.made[0]!.pids()[0]!;
  p.mcp.replace();
  await p.mcp.start();
  const current = p.made[1]!.pids()[0]!;
  await p.mcp.dispose();
  expect(alive(old)).toBe(false);
  expect(alive(current)).toBe(false);
});

test('a tool card reads "server › tool" and the input as one line; other tools, and malformed input, as they came', async () => {
  const p = panel({ user: { fault: fault() } });
  expect(p.mcp.titleOf('fault__echo', '{"message":"hi"}')).toBeUndefined(); // nothing made yet
  p.mcp.servers();
  await p.mcp.start();
  expect(p.mcp.titleOf('fault__echo', '{"message":"hi","n":2}')).toEqual({ title: 'fault › echo', args: 'message="hi", n=2' });
  expect(p.mcp.titleOf('fault__echo', '{"message":')).toEqual({ title: 'fault › echo', args: '{"message":' });
  expect(p.mcp.titleOf('read', '{"path":"a"}')).toBeUndefined();
});

test("the configuration's problems are listed with where they are", async () => {
  const root = tempDir('peon-mcp-panel-bad-');
  writeJson(path.join(root, '.mcp.json'), { mcpServers: { odd: { type: 'carrier-pigeon' } } });
  const p = panel({ root });
  p.mcp.servers();
  expect(p.mcp.status().problems).toEqual(['.mcp.json (server "odd"): type "carrier-pigeon" is not stdio, http or sse']);
});
