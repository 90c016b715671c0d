import fs from 'node:fs';
import path from 'node:path';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir, repoRoot } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { runAxe, startKeyboardWalk, unreachedControls } from './panelAudit.mjs';
import { openPeonView, openPeonWorkbench, pickColorTheme, sendInNewChat, setSideBarWidth, UI_WAIT, type Workbench } from './workbench';

// Accessibility in the real VS Code (issue 16, item 13): in each of the panel's main states
// (empty, mid-turn with tool cards and an approval card, the finished answer, a question
// modal, the MCP section, the memory view) every control is reached by Tab and has an
// accessible name, and axe-core finds no WCAG 2.2 A/AA or best-practice violation in the
// webview's frame, in the dark, light and high-contrast themes. axe-core is evaluated in the
// frame through the DevTools protocol: the panel keeps its CSP (nothing added to the page).
// The mid-turn state in the dark theme is also the README's screenshot: `PEON_README_SHOT=1`
// writes it to media/panel-mid-turn.png (commit it).
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;
const shots = path.join(artifactsDir, 'e2e');
const axeSource = fs.readFileSync(path.join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
/** Every state's findings, written to test-results/e2e/accessibility.json for the record. */
const findings: Record<string, unknown> = {};

beforeAll(async () => {
  model = await startModelServer();
  // Two user servers: one that starts and lists its tools, one whose command does not exist (failed: the state that wants attention).
  const fault = { command: process.execPath, args: [path.resolve('test/fixtures/mcp/faultServer.mjs')] };
  const broken = { command: path.join(repoRoot, 'test', 'fixtures', 'mcp', 'no-such-server') };
  workbench = await openPeonWorkbench(
    { 'README.md': '# project\n\nA small service.\n', 'src/app.ts': 'export function greet(name: string) {\n  return name;\n}\n' },
    { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl, 'peon.mcp.servers': { fault, broken } },
  );
  fs.mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  fs.writeFileSync(path.join(shots, 'accessibility.json'), `${JSON.stringify(findings, null, 2)}\n`);
  await workbench?.close();
  await model?.close();
});

const call = (id: string, name: string, input: unknown) => ({ id, name, arguments: JSON.stringify(input) });

/** The webview's content frame itself (axe runs in it, not through a locator). */
async function frameOf(chat: FrameLocator): Promise<Frame> {
  const body = await chat.locator('body').elementHandle({ timeout: UI_WAIT });
  const frame = await body?.ownerFrame();
  if (!frame) throw new Error('The chat view has no content frame');
  return frame;
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

/** axe-core over the whole frame: WCAG 2.0–2.2 A and AA, and Deque's best practices. */
async function axe(frame: Frame): Promise<Violation[]> {
  if (!(await frame.evaluate(() => 'axe' in globalThis))) await frame.evaluate(axeSource);
  return frame.evaluate(runAxe, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    // The panel is a part of VS Code's window, not a page: its heading is the view's title in VS Code's own header.
    rules: { 'page-has-heading-one': { enabled: false } },
    resultTypes: ['violations'],
  }) as Promise<Violation[]>;
}

/** Tabs through the frame from its first control; returns how many controls it has and those Tab never reached. */
async function keyboardWalk(page: Page, frame: Frame): Promise<{ controls: number; unreached: string[] }> {
  const controls = await frame.evaluate(startKeyboardWalk);
  for (let i = 0; i < controls + 2; i++) await page.keyboard.press('Tab');
  return { controls, unreached: await frame.evaluate(unreachedControls) };
}

/** Violations left open on purpose (one rule on one kind of node, with why): none. Anything axe finds fails. */
const APPROVAL_CARD_OPEN: readonly { rule: string; target: RegExp; why: string }[] = [];

/** Audits one state: records its findings, and asserts a keyboard walk reaches every control and axe finds nothing. */
async function audit(state: string, chat: FrameLocator): Promise<void> {
  const frame = await frameOf(chat);
  const found = await axe(frame);
  const walk = await keyboardWalk(workbench.page, frame);
  const open = (v: Violation) => APPROVAL_CARD_OPEN.some((o) => o.rule === v.id && v.nodes.every((n) => o.target.test(n.target)));
  const violations = found.filter((v) => !open(v));
  findings[state] = { violations, leftToTheApprovalCard: found.filter(open), ...walk };
  // Soft: every state is audited even when an earlier one fails.
  expect.soft(walk.controls, `${state}: controls found`).toBeGreaterThan(0);
  expect.soft(walk.unreached, `${state}: controls Tab never reached`).toEqual([]);
  expect.soft(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`), `${state}: axe-core violations`).toEqual([]);
}

test('empty: the panel before the first message', async () => {
  const chat = await openPeonView(workbench.page);
  await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
  await audit('empty', chat);
});

test('the keyboard walk notices a control Tab skips', async () => {
  const chat = await openPeonView(workbench.page);
  const frame = await frameOf(chat);
  const composer = chat.locator('.composer');
  await composer.evaluate((el) => el.insertAdjacentHTML('beforeend', '<button type="button" tabindex="-1" class="skipped">Skipped by Tab</button>'));
  expect((await keyboardWalk(workbench.page, frame)).unreached).toEqual(['button "Skipped by Tab"']);
  await composer.locator('.skipped').evaluate((el) => el.remove());
});

/** Each theme in turn, ending in Dark Modern (the workbench's theme from then on). */
async function inEachTheme(chat: FrameLocator, each: (theme: string, name: string) => Promise<void>): Promise<void> {
  for (const [theme, name] of [
    ['Light Modern', 'light'],
    ['Dark High Contrast', 'high-contrast'],
    ['Dark Modern', 'dark'],
  ] as const) {
    await pickColorTheme(workbench.page, theme);
    await expect.poll(() => chat.locator('body').getAttribute('class'), { timeout: UI_WAIT }).toContain(`vscode-${name}`);
    await each(theme, name);
  }
}

test('MCP section: a user server started with its tools, and one that failed; in light, high contrast and dark', async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);
  await setSideBarWidth(page, 440);
  await chat.getByRole('button', { name: /^MCP / }).click();
  const section = chat.getByRole('region', { name: 'MCP servers' });
  await section.getByRole('button', { name: 'Start now' }).click();
  await section.getByRole('listitem', { name: 'MCP server fault' }).getByRole('checkbox').first().waitFor({ timeout: UI_WAIT });
  const broken = section.getByRole('listitem', { name: 'MCP server broken' });
  await broken.getByText('failed', { exact: true }).waitFor({ timeout: UI_WAIT });
  await inEachTheme(chat, async (theme, name) => {
    await page.locator('.part.sidebar').screenshot({ path: path.join(shots, `peon-a11y-mcp-${name}.png`) });
    await audit(`MCP section, ${theme}`, chat);
  });
  // Off for the rest: the README's screenshot below is of a chat, not of a broken server.
  await broken.getByRole('button', { name: 'Disable broken' }).click();
  await broken.getByText('disabled here', { exact: true }).waitFor({ timeout: UI_WAIT });
  await section.getByRole('button', { name: '← Chat' }).click();
});

test('mid-turn: streamed text, tool cards, and an approval card with its diff; in light, high contrast and dark', async () => {
  const { page } = workbench;
  model.script(
    { text: 'Let me look at the project first.', toolCalls: [call('r1', 'read', { path: 'src/app.ts' })] },
    { toolCalls: [call('g1', 'grep', { pattern: 'greet', path: '.' })] },
    { text: 'I will make the greeting say hello.', toolCalls: [call('e1', 'edit', { path: 'src/app.ts', oldString: '  return name;', newString: '  return `Hello, ${name}!`;' })] },
    { text: 'Done: `greet("Ada")` now returns:\n\n```ts\n"Hello, Ada!"\n```\n' },
  );
  const chat = await sendInNewChat(page, 'make greet say hello');
  const approve = chat.getByRole('button', { name: 'Approve', exact: true });
  await approve.waitFor({ timeout: UI_WAIT });
  await inEachTheme(chat, async (theme, name) => {
    await page.locator('.part.sidebar').screenshot({ path: path.join(shots, `peon-a11y-mid-turn-${name}.png`) });
    await audit(`mid-turn, ${theme}`, chat);
  });
  if (process.env.PEON_README_SHOT) {
    // A shorter window, so the conversation and the card fill the picture.
    await page.setViewportSize({ width: 1400, height: 760 });
    await chat.locator('body').evaluate((body) => (body.ownerDocument.activeElement as { blur?: () => void } | null)?.blur?.());
    await page.locator('.part.sidebar').screenshot({ path: path.join(repoRoot, 'media', 'panel-mid-turn.png') });
    await page.setViewportSize({ width: 1400, height: 900 });
  }
  await approve.click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).last().textContent(), { timeout: UI_WAIT }).toContain('Hello, Ada!');
  await audit('answered', chat);
});

test('memory view: an entry remembered from a message', async () => {
  const chat = await openPeonView(workbench.page);
  const mine = chat.locator('.message-row.user').last();
  await mine.hover();
  await mine.getByRole('button', { name: 'Remember this message (yours)' }).click();
  await chat.getByRole('status').filter({ hasText: /^Remembered as obs-/ }).waitFor({ timeout: UI_WAIT });
  await chat.getByRole('button', { name: 'Memory', exact: true }).click();
  const memory = chat.getByRole('region', { name: 'Memory' });
  await memory.getByRole('listitem').first().waitFor({ timeout: UI_WAIT });
  await audit('memory view', chat);
  await memory.getByRole('button', { name: '← Chat' }).click();
});

test('question modal: a text question and a select', async () => {
  const questions = [
    { id: 'name', question: 'What should the module be called?', type: 'text', required: true },
    { id: 'style', question: 'Tabs or spaces?', type: 'select', options: ['tabs', 'spaces'] },
  ];
  model.script({ toolCalls: [call('q1', 'askuserquestion', { questions })] }, { text: 'Thanks.' });
  const chat = await sendInNewChat(workbench.page, 'ask me two things');
  const modal = chat.getByRole('dialog', { name: 'Peon asks' });
  await modal.waitFor({ timeout: UI_WAIT });
  await workbench.page.locator('.part.sidebar').screenshot({ path: path.join(shots, 'peon-a11y-question-modal.png') });
  await audit('question modal', chat);
  await modal.getByRole('button', { name: 'Stop' }).click();
  await modal.waitFor({ state: 'detached', timeout: UI_WAIT });
});
