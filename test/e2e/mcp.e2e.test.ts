import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { provisionMcpServers } from '../../scripts/provision-mcp.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { sleepers, uniqueTag } from '../processWatch';
import { openPeonView, openPeonWorkbench, runCommand, sendMessage, UI_WAIT, type Workbench } from './workbench';

// MCP in the real VS Code (DESIGN.md §4 "MCP tools", §7): a workspace whose
// .vscode/mcp.json configures the real server-everything over stdio. The first message
// puts the project server on its card (exactly what runs); approved, it starts, and
// the scripted model calls everything__echo, whose card reads "everything › echo"; the
// call approved, its result shows. The MCP section then lists the server ready with its
// tools, and a tool turned off there is gone from the next request. A server's
// elicitation opens the question modal, labelled with the server's name. Reloading the window
// stops the servers and all they started: the user's fault server leaves a grandchild
// in a session of its own, which only Peon's stop of the server's tree ends.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;
let entry: string;
/** Written into the fault server's grandchild's command line: its pid is the server's PID namespace's, not ours. */
const { tag } = uniqueTag();
const shots = path.join(artifactsDir, 'e2e');

beforeAll(async () => {
  entry = provisionMcpServers().everything;
  model = await startModelServer();
  const mcpJson = { servers: { everything: { type: 'stdio', command: process.execPath, args: [entry, 'stdio'] } } };
  const fault = { command: process.execPath, args: [path.resolve('test/fixtures/mcp/faultServer.mjs'), 'grandchild'], env: { FAULT_TAG: tag } };
  workbench = await openPeonWorkbench(
    { 'README.md': '# project\n', '.vscode/mcp.json': JSON.stringify(mcpJson, null, 2) },
    { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl, 'peon.mcp.servers': { fault } },
  );
  fs.mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

const call = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(input) }] });
const toolsOf = (request: { body?: { tools?: { function?: { name?: string } }[] } } | undefined): string[] => (request?.body?.tools ?? []).map((t) => t.function?.name ?? '');
/** The PIDs of Node processes running server-everything's entry (Linux /proc); the kill-only wrapper around a server (bwrap) holds the entry in its command line too, and is not counted. */
const serverPids = (): number[] =>
  fs.readdirSync('/proc').flatMap((pid) => {
    if (!/^\d+$/.test(pid)) return [];
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\u0000');
      return argv[0] === process.execPath && argv.includes(entry) ? [Number(pid)] : [];
    } catch {
      return [];
    }
  });

test('the project server approved on its card starts; everything__echo asks as "everything › echo" and its result shows', async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);
  model.script(call('c1', 'everything__echo', { message: 'hello from the panel' }), { text: 'The server echoed it.' });
  await sendMessage(chat, 'Echo "hello from the panel" through the MCP server.');

  // The project's server waits for the person: its card says exactly what will run, and nothing runs yet.
  const serverCard = chat.getByRole('group', { name: 'Approval: Start the MCP server everything' });
  await serverCard.waitFor({ timeout: UI_WAIT });
  expect(await serverCard.getByLabel('What runs').textContent()).toBe(`${process.execPath} ${entry} stdio`);
  expect(await serverCard.locator('.description').textContent()).toContain('.vscode/mcp.json');
  expect(await serverCard.getByRole('button').allTextContents()).toEqual(['Approve', 'Deny']);
  expect(serverPids()).toEqual([]);
  expect(model.requests).toHaveLength(0);
  // The person's own server (user settings) needs no card.
  await expect.poll(() => sleepers(tag).length, { timeout: UI_WAIT }).toBe(1);
  await page.screenshot({ path: path.join(shots, 'peon-mcp-server-card.png') });
  await serverCard.getByRole('button', { name: 'Approve' }).click();

  // Started, its tools go with the request; the model's call asks on a card of its own.
  const callCard = chat.getByRole('group', { name: 'Approval: everything › echo' });
  await callCard.waitFor({ timeout: UI_WAIT });
  expect(toolsOf(model.requests[0])).toEqual(expect.arrayContaining(['everything__echo', 'read']));
  expect(await callCard.getByLabel('Input').textContent()).toBe('message="hello from the panel"');
  expect(await callCard.locator('.approval-tool').textContent()).toBe('everything__echo');
  const toolCard = chat.getByRole('group', { name: 'Tool call everything__echo' });
  expect(await toolCard.locator('.tool-toggle .tool-name').textContent()).toBe('everything › echo');
  expect(await toolCard.locator('.tool-toggle .tool-args').textContent()).toBe('message="hello from the panel"');
  await expect.poll(() => toolCard.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('waiting for approval');
  await page.screenshot({ path: path.join(shots, 'peon-mcp-call-card.png') });
  await callCard.getByRole('button', { name: 'Approve', exact: true }).click();

  // The result: the card's headline, its output, and the model's answer after it.
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).last().textContent(), { timeout: UI_WAIT }).toBe('The server echoed it.');
  expect(await toolCard.locator('.tool-headline').textContent()).toMatch(/^everything › echo · \d+ B$/);
  expect(await toolCard.locator('.tool-output').textContent()).toBe('Echo: hello from the panel');
  expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('Echo: hello from the panel');
});

test("a server's elicitation is put to the person in the question modal, labelled with its name; the answer reaches the server", async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);
  model.script(call('c2', 'everything__trigger-elicitation-request', {}), { text: 'Thanks, Ada.' });
  await sendMessage(chat, 'Ask me for my details through the server.');
  const callCard = chat.getByRole('group', { name: 'Approval: everything › trigger-elicitation-request' });
  await callCard.waitFor({ timeout: UI_WAIT });
  await callCard.getByRole('button', { name: 'Approve', exact: true }).click();
  const modal = chat.getByRole('dialog', { name: 'MCP server "everything" asks' });
  await modal.waitFor({ timeout: UI_WAIT });
  expect(await modal.textContent()).toContain('Please provide inputs for the following fields:');
  await chat.locator('.question-modal textarea').first().pressSequentially('Ada Lovelace');
  await page.screenshot({ path: path.join(shots, 'peon-mcp-elicitation.png') });
  await page.keyboard.press('Control+Enter');
  await modal.waitFor({ state: 'detached', timeout: UI_WAIT });
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).last().textContent(), { timeout: UI_WAIT }).toBe('Thanks, Ada.');
  const output = await chat.getByRole('group', { name: 'Tool call everything__trigger-elicitation-request' }).locator('.tool-output').textContent();
  // Typed as the schema says: the name given, the defaults for the rest.
  expect(output).toContain('- Name: Ada Lovelace');
  expect(output).toContain('- Favorite Integer: 42');
});

test('the MCP section lists both servers ready with their tools; a tool turned off there is not offered with the next message', async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);

  // The MCP section: the server ready with its tools, each with its toggle.
  const button = chat.getByRole('button', { name: /^MCP / });
  await expect.poll(() => button.getAttribute('title'), { timeout: UI_WAIT }).toBe('The MCP servers of this window: 2 ready');
  await button.click();
  const row = chat.getByRole('region', { name: 'MCP servers' }).getByRole('listitem', { name: 'MCP server everything' });
  await row.waitFor({ timeout: UI_WAIT });
  expect(await row.locator('.mcp-state').textContent()).toMatch(/^ready · \d+ tools$/);
  expect(await row.locator('.mcp-source').textContent()).toBe('.vscode/mcp.json');
  const echo = row.getByRole('checkbox', { name: 'Use echo (everything__echo)' });
  expect(await echo.isChecked()).toBe(true);
  const total = await row.getByRole('checkbox').count();
  expect(total).toBeGreaterThan(3);
  expect(await row.locator('.mcp-tools summary').textContent()).toBe(`${total} of ${total} tools on`);
  const own = chat.getByRole('listitem', { name: 'MCP server fault' });
  expect(await own.locator('.mcp-source').textContent()).toBe('your settings');
  expect(await own.locator('.mcp-state').textContent()).toBe('ready · 5 tools');
  await page.screenshot({ path: path.join(shots, 'peon-mcp-section.png') });

  // Turned off here, echo is not offered to the model with the next message.
  await echo.uncheck();
  await expect.poll(() => row.locator('.mcp-tools summary').textContent(), { timeout: UI_WAIT }).toBe(`${total - 1} of ${total} tools on`);
  await chat.getByRole('button', { name: '← Chat' }).click();
  model.script({ text: 'Fine.' });
  const before = model.requests.length;
  await sendMessage(chat, 'Anything else?');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).last().textContent(), { timeout: UI_WAIT }).toBe('Fine.');
  const tools = toolsOf(model.requests[before]);
  expect(tools).not.toContain('everything__echo');
  expect(tools).toContain('everything__get-sum');
  expect(serverPids()).toHaveLength(1);
});

test('reloading the window stops the servers and all they started', async () => {
  expect(sleepers(tag)).toHaveLength(1);
  expect(serverPids()).toHaveLength(1);
  // The extension host ends as VS Code ends it (deactivate stops the servers; the runtime's exit hook would too).
  await runCommand(workbench.page, 'Developer: Reload Window');
  await expect.poll(serverPids, { timeout: UI_WAIT }).toEqual([]);
  await expect.poll(() => sleepers(tag).length, { timeout: UI_WAIT }).toBe(0);
});
