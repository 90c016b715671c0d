// The built webview in headless Chromium: askuserquestion's modal, the todo list, plan
// mode's banner and a plan's approval card (DESIGN.md §4, §7), driven as a person would,
// by keyboard where it matters, and checked by what the panel posts to the host.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../vscode/browser.mjs';
import { openStandaloneWebview } from '../../webview/standalonePage.mjs';
import { inertReport } from './inert';

// The page's globals, for the callbacks Playwright runs in the browser (this file is typechecked without the DOM library).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
type HTMLElement = any;
declare function getComputedStyle(element: unknown): any;
/* eslint-enable @typescript-eslint/no-explicit-any */

type View = Awaited<ReturnType<typeof openStandaloneWebview>>;
const configured = { state: 'configured', provider: 'anthropic', model: 'claude-test' } as const;
const init = { type: 'init', entries: [], model: configured } as const;
const LEAK = 'http://127.0.0.1:9/x';

const twoQuestions = {
  type: 'question',
  request: {
    id: 'ask-1',
    agent: 'main',
    questions: [
      { id: 'why', question: 'Why this change?', type: 'text', required: true },
      { id: 'db', question: 'Which database?', type: 'select', options: ['Postgres', 'SQLite'] },
    ],
  },
} as const;

const planCard = (id: string, summary: Record<string, unknown>) => ({
  type: 'approval',
  card: { id, tool: 'exitplanmode', risk: 'read_only', summary: { kind: 'plan', ...summary }, source: 'default for exitplanmode: ask', reasons: ['leaving plan mode needs your approval'], grantable: [], sessionGrants: [], canAlways: false, canOpenDiff: false },
});
const plan = '# Refactor the parser\n\nSteps:\n\n- split `parse()` into lexer and parser\n- add **tests**\n\n```ts\nparse(text)\n```';
const withGrants = planCard('plan-1', { plan, source: '.peon/plans/parser.md', files: ['src/parser/**', 'test/parser/*.test.ts'], commands: ['npm test', 'npx tsc *'] });

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

async function open(messages: unknown[] = []): Promise<View> {
  const view = await openStandaloneWebview(browser);
  await view.send([init, ...messages]);
  return view;
}

const isFocused = (page: Page, selector: string): Promise<boolean> => page.evaluate((sel) => document.activeElement === document.querySelector(sel), selector);
const lastPosted = async (view: View): Promise<unknown> => (await view.posted()).at(-1);
const postedOf = async (view: View, type: string): Promise<unknown[]> => (await view.posted()).filter((m) => (m as { type: string }).type === type);

// Dark Modern's colours for the few variables the panel uses, so a screenshot looks as in
// VS Code (set through the CSSOM: the CSP forbids an inline stylesheet).
const DARK: Record<string, string> = {
  '--vscode-foreground': '#cccccc',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-sideBar-background': '#181818',
  '--vscode-editor-background': '#1f1f1f',
  '--vscode-editorWidget-background': '#202020',
  '--vscode-editorWidget-border': '#454545',
  '--vscode-widget-shadow': 'rgba(0, 0, 0, 0.36)',
  '--vscode-panel-border': '#2b2b2b',
  '--vscode-focusBorder': '#0078d4',
  '--vscode-input-background': '#313131',
  '--vscode-input-foreground': '#cccccc',
  '--vscode-input-border': '#3c3c3c',
  '--vscode-button-background': '#0078d4',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-hoverBackground': '#026ec1',
  '--vscode-button-secondaryBackground': '#313131',
  '--vscode-button-secondaryForeground': '#cccccc',
  '--vscode-badge-background': '#616161',
  '--vscode-badge-foreground': '#f8f8f8',
  '--vscode-textCodeBlock-background': '#2b2b2b',
  '--vscode-textLink-foreground': '#4daafc',
  '--vscode-errorForeground': '#f85149',
  '--vscode-editorWarning-foreground': '#cca700',
  '--vscode-inputValidation-infoBackground': '#063b49',
  '--vscode-inputValidation-infoBorder': '#1b80b2',
  '--vscode-inputValidation-warningBorder': '#b89500',
  '--vscode-inputValidation-errorBorder': '#be1100',
  '--vscode-font-family': 'system-ui, sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-font-family': 'monospace',
};
const applyTheme = (page: Page, theme: Record<string, string>): Promise<void> =>
  page.evaluate((vars) => Object.entries(vars).forEach(([name, value]) => document.documentElement.style.setProperty(name, value)), theme);

describe('askuserquestion: the modal', () => {
  test('two questions answered by keyboard only post every answer, the custom one as typed', async () => {
    const view = await open([twoQuestions]);
    const dialog = view.page.getByRole('dialog', { name: 'Peon asks' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await dialog.getByRole('heading').textContent()).toBe('Peon asks');
    const why = dialog.getByRole('textbox', { name: 'Why this change? (required)' });
    expect(await why.evaluate((el) => el === document.activeElement)).toBe(true);
    const group = dialog.getByRole('radiogroup', { name: 'Which database?' });
    expect(await group.getByRole('radio').evaluateAll((radios) => radios.map((r) => r.parentElement?.textContent))).toEqual(['Postgres', 'SQLite', 'Custom answer']);

    // Focus stays inside: Shift+Tab from the first field wraps to the last button.
    await view.page.keyboard.press('Shift+Tab');
    expect(await dialog.getByRole('button', { name: 'Submit answers' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await view.page.keyboard.press('Tab');
    expect(await why.evaluate((el) => el === document.activeElement)).toBe(true);

    await view.page.keyboard.type('Faster startup');
    await view.page.keyboard.press('Tab');
    expect(await group.getByRole('radio', { name: 'Postgres' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await view.page.keyboard.press('ArrowDown');
    await view.page.keyboard.press('ArrowDown');
    expect(await group.getByRole('radio', { name: 'Custom answer' }).isChecked()).toBe(true);
    await view.page.keyboard.press('Tab');
    expect(await isFocused(view.page, '.question-custom')).toBe(true);
    await view.page.keyboard.type('DuckDB');
    expect(await group.getByRole('textbox', { name: 'Custom answer for Which database?' }).inputValue()).toBe('DuckDB');
    await view.page.keyboard.press('Enter');

    expect(await postedOf(view, 'answerQuestions')).toEqual([{ type: 'answerQuestions', id: 'ask-1', answers: { why: 'Faster startup', db: 'DuckDB' } }]);
    await dialog.waitFor({ state: 'detached' });
    await view.page.close();
  }, 30_000);

  test('a chosen option is its text; an unanswered optional question is ""; Ctrl+Enter submits from a textarea', async () => {
    const view = await open([{ type: 'question', request: { id: 'ask-2', agent: 'explorer', questions: [{ id: 'db', question: 'Which database?', type: 'select', options: ['Postgres', 'SQLite'] }, { id: 'note', question: 'Anything else?', type: 'text' }] } }]);
    const dialog = view.page.getByRole('dialog', { name: 'explorer asks' });
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('explorer asks');
    expect(await dialog.getByRole('radio', { name: 'Postgres' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await view.page.keyboard.press('ArrowDown');
    await view.page.keyboard.press('Tab');
    await view.page.keyboard.press('Control+Enter');
    expect(await lastPosted(view)).toEqual({ type: 'answerQuestions', id: 'ask-2', answers: { db: 'SQLite', note: '' } });
    await view.page.close();
  }, 30_000);

  test('a required question left empty is flagged next to it and focused; nothing is sent', async () => {
    const view = await open([twoQuestions]);
    const dialog = view.page.getByRole('dialog', { name: 'Peon asks' });
    const why = dialog.getByRole('textbox', { name: 'Why this change? (required)' });
    await why.waitFor();
    // Away from the field, then Submit: the alert appears in the question, focus goes back.
    await dialog.getByRole('radio', { name: 'SQLite' }).check();
    const submit = dialog.getByRole('button', { name: 'Submit answers' });
    expect(await submit.isEnabled()).toBe(true);
    await submit.click();
    const alert = dialog.locator('.question', { has: view.page.getByRole('textbox', { name: 'Why this change? (required)' }) }).getByRole('alert');
    expect(await alert.textContent()).toBe('An answer is required.');
    expect(await dialog.getByRole('alert').count()).toBe(1);
    expect(await why.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await why.getAttribute('aria-invalid')).toBe('true');
    // Whitespace is no answer either, and Ctrl+Enter is held to the same rule.
    await view.page.keyboard.type('   ');
    await view.page.keyboard.press('Control+Enter');
    expect(await alert.isVisible()).toBe(true);
    expect(await postedOf(view, 'answerQuestions')).toEqual([]);
    expect(await dialog.isVisible()).toBe(true);
    // Answered: the alert goes and the answers are sent.
    await view.page.keyboard.type('ok');
    expect(await alert.count()).toBe(0);
    await submit.click();
    expect(await postedOf(view, 'answerQuestions')).toEqual([{ type: 'answerQuestions', id: 'ask-1', answers: { why: 'ok', db: 'SQLite' } }]);
    await view.page.close();
  }, 30_000);

  test('a custom answer chosen but left empty counts as missing for a required select', async () => {
    const view = await open([{ type: 'question', request: { id: 'ask-3', agent: 'main', questions: [{ id: 'db', question: 'Which database?', type: 'select', options: ['Postgres'], required: true }] } }]);
    const dialog = view.page.getByRole('dialog', { name: 'Peon asks' });
    await dialog.getByRole('radio', { name: 'Custom answer' }).check();
    await dialog.getByRole('button', { name: 'Submit answers' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe('An answer is required.');
    expect(await isFocused(view.page, '.question-custom')).toBe(true);
    expect(await postedOf(view, 'answerQuestions')).toEqual([]);
    await view.page.close();
  }, 30_000);

  test('Escape dismisses (as does "Dismiss"): dismissQuestions is posted and the modal closes', async () => {
    const view = await open([twoQuestions]);
    const dialog = view.page.getByRole('dialog', { name: 'Peon asks' });
    await dialog.waitFor();
    await view.page.keyboard.type('half an answer');
    await view.page.keyboard.press('Escape');
    expect(await lastPosted(view)).toEqual({ type: 'dismissQuestions', id: 'ask-1' });
    await dialog.waitFor({ state: 'detached' });
    expect(await postedOf(view, 'answerQuestions')).toEqual([]);

    await view.send({ ...twoQuestions, request: { ...twoQuestions.request, id: 'ask-9' } });
    await dialog.getByRole('button', { name: 'Dismiss' }).click();
    expect(await lastPosted(view)).toEqual({ type: 'dismissQuestions', id: 'ask-9' });
    await view.page.close();
  }, 30_000);

  test('questionSettled closes the modal; queued requests show one at a time; the panel is inert meanwhile', async () => {
    const second = { type: 'question', request: { id: 'ask-2', agent: 'developer', questions: [{ id: 'x', question: 'Proceed?', type: 'select', options: ['yes', 'no'] }] } };
    const view = await open([twoQuestions, second, twoQuestions]);
    await view.page.getByRole('dialog', { name: 'Peon asks' }).waitFor();
    expect(await view.page.getByRole('dialog').count()).toBe(1);
    expect(await view.page.locator('main.chat').evaluate((main) => (main as HTMLElement).inert)).toBe(true);
    await view.send({ type: 'questionSettled', id: 'ask-1' });
    await view.page.getByRole('dialog', { name: 'developer asks' }).waitFor();
    await view.send({ type: 'questionSettled', id: 'ask-2' });
    await view.page.locator('.question-modal').waitFor({ state: 'detached' });
    expect(await view.page.locator('main.chat').evaluate((main) => (main as HTMLElement).inert)).toBe(false);
    expect(await postedOf(view, 'answerQuestions')).toEqual([]);
    expect(await postedOf(view, 'dismissQuestions')).toEqual([]);
    await view.page.close();
  }, 30_000);

  test('question text is text: hostile markup stays inert', async () => {
    const hostile = `<img src="${LEAK}" onerror="window.__pwned = 1"><script>window.__pwned = 2</script>`;
    const view = await open([{ type: 'question', request: { id: 'ask-h', agent: '<b>x</b>', questions: [{ id: 'a', question: hostile, type: 'select', options: [hostile] }] } }]);
    const dialog = view.page.getByRole('dialog', { name: '<b>x</b> asks' });
    await dialog.waitFor();
    expect(await dialog.locator('img, script, b').count()).toBe(0);
    expect(await dialog.textContent()).toContain(hostile);
    expect(await view.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(view.extraRequests()).toEqual([]);
    await view.page.close();
  }, 30_000);
});

describe('the todo list', () => {
  const todos = [
    { id: 'todo-1', title: 'Read the config', status: 'completed', priority: 'medium', dependsOn: [] },
    { id: 'todo-2', title: 'Write the parser', description: 'Handles JSONC', status: 'in_progress', priority: 'high', dependsOn: ['todo-1'] },
    { id: 'todo-3', title: 'Add tests', status: 'pending', priority: 'low', dependsOn: ['todo-1', 'todo-2'] },
    { id: 'todo-4', title: 'Old idea', status: 'cancelled', priority: 'medium', dependsOn: [] },
  ];

  test('renders above the composer with its open count, statuses, priorities and dependencies', async () => {
    const view = await open();
    expect(await view.page.getByRole('region', { name: 'Todos' }).count()).toBe(0);
    await view.send({ type: 'todos', todos, problem: '.peon/todos.json did not parse; kept as .peon/todos.json.bad' });
    const list = view.page.getByRole('region', { name: 'Todos' });
    expect(await list.getByRole('heading').textContent()).toBe('▾Todos · 2 open');
    expect(await list.getByRole('heading', { name: 'Todos · 2 open' }).count()).toBe(1);
    const item = (title: string) => list.getByRole('listitem').filter({ has: view.page.getByRole('checkbox', { name: `Done: ${title}` }) });
    expect(await list.getByRole('checkbox', { name: 'Done: Read the config' }).isChecked()).toBe(true);
    expect(await list.getByRole('checkbox', { name: 'Done: Add tests' }).isChecked()).toBe(false);
    expect(await item('Write the parser').locator('.todo-badge').allTextContents()).toEqual(['in progress', 'high']);
    expect(await item('Write the parser').locator('.todo-description').textContent()).toBe('Handles JSONC');
    expect(await item('Add tests').locator('.todo-badge').allTextContents()).toEqual(['low']);
    expect(await item('Add tests').locator('.todo-deps').textContent()).toBe('after todo-1, todo-2');
    expect(await item('Old idea').locator('.todo-badge').allTextContents()).toEqual(['cancelled']);
    expect(await list.getByRole('alert').textContent()).toContain('did not parse');
    // It sits right above the composer (the model's row between them).
    expect(await view.page.locator('main.chat > .todos + .model-row + .composer').count()).toBe(1);
    // Collapsible.
    await list.getByRole('button', { name: 'Todos · 2 open' }).click();
    expect(await list.getByRole('listitem').count()).toBe(0);
    await list.getByRole('button', { name: 'Todos · 2 open' }).click();
    expect(await list.getByRole('listitem').count()).toBe(4);
    await view.send({ type: 'todos', todos: [] });
    await list.waitFor({ state: 'detached' });
    await view.page.close();
  }, 30_000);

  test('ticking, unticking, renaming and deleting post editTodo', async () => {
    const view = await open([{ type: 'todos', todos }]);
    const list = view.page.getByRole('region', { name: 'Todos' });
    await list.getByRole('checkbox', { name: 'Done: Add tests' }).check();
    expect(await lastPosted(view)).toEqual({ type: 'editTodo', id: 'todo-3', action: 'update', status: 'completed' });
    await list.getByRole('checkbox', { name: 'Done: Read the config' }).uncheck();
    expect(await lastPosted(view)).toEqual({ type: 'editTodo', id: 'todo-1', action: 'update', status: 'pending' });

    // Rename by keyboard: the pencil, type, Enter.
    await list.getByRole('button', { name: 'Rename Add tests' }).focus();
    await view.page.keyboard.press('Enter');
    const input = list.getByRole('textbox', { name: 'New title for Add tests' });
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await view.page.keyboard.type('Add parser tests');
    await view.page.keyboard.press('Enter');
    expect(await lastPosted(view)).toEqual({ type: 'editTodo', id: 'todo-3', action: 'update', title: 'Add parser tests' });
    expect(await input.count()).toBe(0);
    expect(await list.getByRole('button', { name: 'Rename Add tests' }).evaluate((el) => el === document.activeElement)).toBe(true);

    // Double-click renames too; Escape cancels and posts nothing.
    const count = (await view.posted()).length;
    await list.getByText('Old idea').dblclick();
    await list.getByRole('textbox', { name: 'New title for Old idea' }).fill('Something else');
    await view.page.keyboard.press('Escape');
    expect(await list.getByRole('textbox', { name: 'New title for Old idea' }).count()).toBe(0);
    expect((await view.posted()).length).toBe(count);

    await list.getByRole('button', { name: 'Delete Old idea' }).click();
    expect(await lastPosted(view)).toEqual({ type: 'editTodo', id: 'todo-4', action: 'delete' });
    await view.page.close();
  }, 30_000);
});

describe('plan mode', () => {
  test('the banner shows in plan mode and goes in normal mode', async () => {
    const view = await open([{ type: 'mode', mode: 'plan' }]);
    const banner = view.page.locator('.plan-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('role')).toBe('status');
    expect(await banner.textContent()).toBe('Plan mode — Peon only reads and plans; it writes only under .peon/plans/ until you approve a plan.');
    expect(await view.page.locator('main.chat > :first-child').evaluate((el) => el.classList.contains('plan-banner'))).toBe(true);
    await view.send({ type: 'mode', mode: 'normal' });
    await banner.waitFor({ state: 'detached' });
    await view.page.close();
  }, 30_000);

  test('a plan card renders the plan as Markdown, where it came from, and what it will touch', async () => {
    const view = await open([withGrants]);
    const card = view.page.getByRole('group', { name: 'Approval: Approve the plan' });
    await card.waitFor();
    const body = card.locator('.plan-body');
    expect(await body.getByRole('heading').textContent()).toBe('Refactor the parser');
    expect(await body.locator('ul li').allTextContents()).toEqual(['split parse() into lexer and parser', 'add tests']);
    expect(await body.locator('pre code').textContent()).toBe('parse(text)');
    expect(await card.locator('.plan-source').textContent()).toBe('Plan from .peon/plans/parser.md');
    const touch = card.getByRole('group', { name: 'The plan will touch' });
    expect(await touch.locator('dt').allTextContents()).toEqual(['Files', 'Commands']);
    expect(await touch.locator('dd').nth(0).locator('code').allTextContents()).toEqual(['src/parser/**', 'test/parser/*.test.ts']);
    expect(await touch.locator('dd').nth(1).locator('code').allTextContents()).toEqual(['npm test', 'npx tsc *']);
    // The plan's code block has its own Copy and Insert at Cursor; then the card's answers.
    expect(await card.getByRole('button').allTextContents()).toEqual(['Copy', 'Insert at Cursor', 'Approve', "Approve with the plan's grants", 'Keep planning']);
    expect(await card.getByRole('button', { name: "Approve with the plan's grants" }).getAttribute('title')).toBe('Approve, and allow for the rest of this task: Files: src/parser/**, test/parser/*.test.ts · Commands: npm test, npx tsc *');
    // A long plan scrolls inside its box.
    expect(await body.evaluate((el) => getComputedStyle(el).overflowY)).toBe('auto');
    await view.page.close();
  }, 30_000);

  test("a plan card's buttons answer once, session, and deny with what should change", async () => {
    const view = await open([withGrants, planCard('plan-2', { plan, source: 'as given', files: ['docs/**'], commands: [] }), planCard('plan-3', { plan: 'Just do it.', source: '', files: [], commands: [] })]);
    const cards = view.page.getByRole('group', { name: 'Approval: Approve the plan' });
    await cards.nth(2).waitFor();
    await cards.nth(0).getByRole('button', { name: 'Approve', exact: true }).click();
    expect(await lastPosted(view)).toEqual({ type: 'answer', id: 'plan-1', answer: 'once' });
    expect(await cards.nth(0).getByRole('button', { name: 'Keep planning' }).isDisabled()).toBe(true);

    expect(await cards.nth(1).locator('.plan-source').textContent()).toBe('Plan as given');
    await cards.nth(1).getByRole('button', { name: "Approve with the plan's grants" }).click();
    expect(await lastPosted(view)).toEqual({ type: 'answer', id: 'plan-2', answer: 'session' });

    // Nothing declared: no grants to approve with.
    expect(await cards.nth(2).getByRole('button').allTextContents()).toEqual(['Approve', 'Keep planning']);
    expect(await cards.nth(2).getByRole('group', { name: 'The plan will touch' }).count()).toBe(0);
    await cards.nth(2).getByRole('textbox', { name: 'What should change in the plan? (sent with Keep planning)' }).fill('Also update the docs');
    await cards.nth(2).getByRole('button', { name: 'Keep planning' }).click();
    expect(await lastPosted(view)).toEqual({ type: 'answer', id: 'plan-3', answer: 'deny', message: 'Also update the docs' });
    await view.page.close();
  }, 30_000);

  test('a hostile plan is inert: no element, no script, no request', async () => {
    const hostile = [`# Plan`, `<img src=${LEAK}>`, `<img src="${LEAK}-b" onerror="window.__pwned = 1">`, `<script>window.__pwned = 2</script>`, `![x](${LEAK}-md)`, `[run](javascript:window.__pwned=3)`, `<iframe src="${LEAK}-frame"></iframe>`].join('\n\n');
    const view = await open([planCard('plan-h', { plan: hostile, source: '.peon/plans/<img src=x>.md', files: [`<img src=${LEAK}-glob>`], commands: ['<script>window.__pwned = 4</script>'] })]);
    const card = view.page.getByRole('group', { name: 'Approval: Approve the plan' });
    await card.waitFor();
    const found = await inertReport(view.page, '.approval');
    expect(found.pwned).toBeUndefined();
    expect(found.elements).toEqual([]);
    expect(found.links).toEqual([]);
    expect(found.text).toContain('<script>window.__pwned = 2</script>');
    expect(found.text).toContain(`<img src=${LEAK}>`);
    expect(await card.locator('.plan-grants code').allTextContents()).toEqual([`<img src=${LEAK}-glob>`, '<script>window.__pwned = 4</script>']);
    expect(view.extraRequests()).toEqual([]);
    expect(view.violations).toEqual([]);
    await view.page.close();
  }, 30_000);

  test("a plan's grants are tagged and revocable", async () => {
    const view = await open([{ type: 'grants', grants: [{ tool: 'bash', pattern: 'npm test', origin: 'plan' }, { tool: 'write', pattern: 'a.txt', origin: 'approval' }, { tool: 'read', pattern: 'b.txt' }] }]);
    const grants = view.page.getByRole('region', { name: 'Allowed for this chat' });
    await grants.waitFor();
    expect(await grants.locator('.grant').allTextContents()).toEqual(['planbash npm test×', 'write a.txt×', 'read b.txt×']);
    expect(await grants.locator('.grant-tag').count()).toBe(1);
    await grants.getByRole('button', { name: 'Revoke bash npm test' }).click();
    expect(await lastPosted(view)).toEqual({ type: 'revokeGrant', tool: 'bash', pattern: 'npm test' });
    await view.page.close();
  }, 30_000);

  test("a subagent's own plan grant is tagged with its name, and its revoke names the agent", async () => {
    const view = await open([{ type: 'grants', grants: [{ tool: 'bash', pattern: 'npm test', origin: 'plan' }, { tool: 'bash', pattern: 'npm test', origin: 'plan', agent: 'lead' }] }]);
    const grants = view.page.getByRole('region', { name: 'Allowed for this chat' });
    await grants.waitFor();
    expect(await grants.locator('.grant').allTextContents()).toEqual(['planbash npm test×', "lead's planbash npm test×"]);
    await grants.getByRole('button', { name: 'Revoke bash npm test (lead)' }).click();
    expect(await lastPosted(view)).toEqual({ type: 'revokeGrant', tool: 'bash', pattern: 'npm test', agent: 'lead' });
    await view.page.close();
  }, 30_000);
});

describe('screenshots (test-results/)', () => {
  const out = path.resolve('test-results');

  test('the question modal with two questions, and a plan card, in a dark theme', async () => {
    fs.mkdirSync(out, { recursive: true });
    const view = await open([
      { type: 'append', entry: { kind: 'user', id: 'u1', text: 'Move the store to a database' } },
      { type: 'todos', todos: [{ id: 'todo-1', title: 'Pick a database', status: 'in_progress', priority: 'high', dependsOn: [] }, { id: 'todo-2', title: 'Write the migration', status: 'pending', priority: 'medium', dependsOn: ['todo-1'] }] },
      { type: 'question', request: { ...twoQuestions.request, questions: [...twoQuestions.request.questions, { id: 'when', question: 'When should the migration run?', type: 'select', options: ['On startup', 'By hand'], required: true }] } },
    ]);
    await applyTheme(view.page, DARK);
    const dialog = view.page.getByRole('dialog', { name: 'Peon asks' });
    await view.page.keyboard.type('The JSON file is slow past 10k rows');
    await dialog.getByRole('radiogroup', { name: 'Which database?' }).getByRole('radio', { name: 'Custom answer' }).check();
    await dialog.getByRole('textbox', { name: 'Custom answer for Which database?' }).fill('DuckDB');
    await dialog.getByRole('button', { name: 'Submit answers' }).click();
    await dialog.getByRole('alert').waitFor();
    await view.page.screenshot({ path: path.join(out, 'question-modal.png') });
    await view.page.keyboard.press('Escape');

    await view.send([
      { type: 'mode', mode: 'plan' },
      { type: 'grants', grants: [{ tool: 'bash', pattern: 'npm test', origin: 'plan' }] },
      planCard('plan-s', { plan: `${plan}\n\n1. migrate\n2. verify`, source: '.peon/plans/parser.md', files: ['src/parser/**'], commands: ['npm test'] }),
    ]);
    await view.page.getByRole('group', { name: 'Approval: Approve the plan' }).waitFor();
    await view.page.screenshot({ path: path.join(out, 'plan-card.png') });
    await view.page.close();
  }, 30_000);
});
