import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir, repoRoot } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonWorkbench, sendInNewChat, UI_WAIT, type Workbench } from './workbench';

// webfetch and websearch in the real VS Code (DESIGN.md §4, §7): the network card with
// the URL and its host, "Allow requests to … for this chat" granting that host, tool cards that read as
// sentences, and a loopback target not on the list refused without a connection. The
// pages come from a loopback server; the model is the scripted server.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;
let site: http.Server;
let origin = '';
let bait: http.Server;
let baitPort = 0;
const baitConnections: net.Socket[] = [];
const fixture = (name: string) => fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'web', name));

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

beforeAll(async () => {
  model = await startModelServer();
  site = http.createServer((req, res) => {
    const page = req.url?.startsWith('/html/') ? 'ddg-html-1.html' : 'article-1.html';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fixture(page));
  });
  const port = await listen(site);
  origin = `http://127.0.0.1:${port}`;
  bait = http.createServer((_req, res) => res.end('never'));
  bait.on('connection', (socket) => baitConnections.push(socket));
  baitPort = await listen(bait);
  workbench = await openPeonWorkbench({ 'README.md': '# project\n' }, {
    'peon.model.provider': 'openai',
    'peon.model.id': 'fake-model',
    'peon.model.baseUrl': model.openaiUrl,
    'peon.web.allowedHosts': [`127.0.0.1:${port}`],
    'peon.web.search.endpoint': `${origin}/html/`,
    // webfetch is allowed by default; an ask rule shows its card.
    'peon.permission.rules': { webfetch: 'ask' },
  });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
  site?.closeAllConnections();
  bait?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
  await new Promise((resolve) => bait?.close(resolve));
});

const call = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(input) }] });

test('a webfetch card shows the URL with its host; "Allow requests to … for this chat" grants the host; the tool card reads as a sentence', async () => {
  model.script(call('f1', 'webfetch', { url: `${origin}/blog/atf?ref=peon` }), call('f2', 'webfetch', { url: `${origin}/blog/other` }), { text: 'Read both.' });
  const chat = await sendInNewChat(workbench.page, 'read the ATF post');
  const card = chat.getByRole('group', { name: 'Approval: Fetch from 127.0.0.1' });
  await card.waitFor({ timeout: UI_WAIT });
  expect(await card.getByLabel('URL').textContent()).toBe(`${origin}/blog/atf?ref=peon`);
  expect(await card.locator('.url-host').textContent()).toBe('127.0.0.1');
  fs.mkdirSync(path.join(artifactsDir, 'e2e'), { recursive: true });
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-webfetch-card.png') });
  await card.getByRole('button', { name: /^Allow requests to 127\.0\.0\.1\S* for this chat$/ }).click();
  // The second fetch from the same host does not ask again.
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Read both.']);
  const headlines = await chat.locator('.tool-headline').allTextContents();
  expect(headlines).toEqual([`Fetched 127.0.0.1:${origin.split(':')[2]}/blog/atf?ref=peon · 78 KB → Markdown`, `Fetched 127.0.0.1:${origin.split(':')[2]}/blog/other · 78 KB → Markdown`]);
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-webfetch-done.png') });
  const sent = JSON.stringify(model.requests.at(-1)?.body);
  expect(sent).toContain('# How we designed Dropbox ATF: an async task framework');
  expect(sent).not.toContain('utag_data');
});

test('websearch runs without asking and its card reads "Searched the web for …"', async () => {
  model.script(call('s1', 'websearch', { query: 'best mechanical keyboard 2026' }), { text: 'Found some.' });
  const chat = await sendInNewChat(workbench.page, 'search for keyboards');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Found some.']);
  expect(await chat.locator('.tool-headline').allTextContents()).toEqual(["Searched the web for 'best mechanical keyboard 2026' · 10 results"]);
  expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('https://www.rtings.com/keyboard/reviews/best/mechanical');
});

test('a loopback address not on the list is refused before any card, and its server sees no connection', async () => {
  model.script(call('f3', 'webfetch', { url: `http://0x7f.1:${baitPort}/admin` }), { text: 'It was refused.' });
  const chat = await sendInNewChat(workbench.page, 'fetch the admin page');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['It was refused.']);
  const toolCard = chat.getByRole('group', { name: 'Tool call webfetch' });
  expect(await toolCard.locator('.tool-status').textContent()).toBe('failed');
  expect(await toolCard.textContent()).toContain('127.0.0.1 is a loopback address');
  expect(await chat.locator('.approval').count()).toBe(0);
  expect(baitConnections).toEqual([]);
});
