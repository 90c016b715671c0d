import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir, repoRoot } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, resumeFromHistory, sendInNewChat, sendMessage, startNewChat, UI_WAIT, type Workbench } from './workbench';

// The interaction tools in the real VS Code (DESIGN.md §4, §7): questions in the modal,
// Stop while one is open, the todo list live both ways, and plan mode from its approval
// to the plan's card and its grants. The model is the scripted server.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench({ 'README.md': '# project\n', 'src/app.ts': 'export const app = 1;\n' }, { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl });
  fs.mkdirSync(path.join(artifactsDir, 'e2e'), { recursive: true });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

const call = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(input) }] });
const lastBody = (): string => JSON.stringify(model.requests.at(-1)?.body);
const peonSays = (chat: Awaited<ReturnType<typeof openPeonView>>) => chat.getByRole('article', { name: 'Peon' });

const newChat = (prompt: string) => sendInNewChat(workbench.page, prompt);

test('two questions in one modal, answered by keyboard (one a select with a custom answer), reach the model', async () => {
  const questions = [
    { id: 'name', question: 'What should the module be called?', type: 'text', required: true },
    { id: 'style', question: 'Tabs or spaces?', type: 'select', options: ['tabs', 'spaces'] },
  ];
  model.script(call('q1', 'askuserquestion', { questions }), { text: 'Thanks, noted.' });
  const chat = await newChat('ask me two things');
  const modal = chat.getByRole('dialog', { name: 'Peon asks' });
  await modal.waitFor({ timeout: UI_WAIT });
  // The first field has the focus: type, Tab to the options, pick "Custom answer" by arrow keys.
  await chat.locator('.question-modal textarea').first().pressSequentially('parser');
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-question-modal.png') });
  await modal.getByRole('radio', { name: 'Custom answer' }).check();
  await modal.getByRole('textbox', { name: 'Custom answer for Tabs or spaces?' }).fill('two spaces');
  await modal.getByRole('button', { name: 'Submit answers' }).press('Enter');
  await expect.poll(() => peonSays(chat).allTextContents(), { timeout: UI_WAIT }).toEqual(['Thanks, noted.']);
  expect(await modal.count()).toBe(0);
  expect(lastBody()).toContain(JSON.stringify(JSON.stringify({ answers: { name: 'parser', style: 'two spaces' } })).slice(1, -1));
});

test('Stop while a question is open answers it cancelled, and the modal goes', async () => {
  model.script(call('q2', 'askuserquestion', { questions: [{ id: 'why', question: 'Why?', type: 'text' }] }));
  const chat = await newChat('ask me why');
  const modal = chat.getByRole('dialog', { name: 'Peon asks' });
  await modal.waitFor({ timeout: UI_WAIT });
  // The panel behind the modal is inactive; the modal has its own Stop.
  await modal.getByRole('button', { name: 'Stop' }).click();
  await modal.waitFor({ state: 'detached', timeout: UI_WAIT });
  const toolCard = chat.getByRole('group', { name: 'Tool call askuserquestion' });
  await expect.poll(() => toolCard.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('cancelled');
  expect(await toolCard.textContent()).toContain('cancelled');
});

test('the todo list shows live; an item ticked in the panel reaches the model', async () => {
  model.script(call('t1', 'todowrite', { title: 'Write the parser', priority: 'high' }), call('t2', 'todowrite', { title: 'Test the parser', dependsOn: ['todo-1'] }), { text: 'Two steps planned.' });
  const chat = await newChat('plan two steps');
  const todos = chat.getByRole('region', { name: 'Todos' });
  await expect.poll(() => todos.locator('li').count(), { timeout: UI_WAIT }).toBe(2);
  expect(await todos.textContent()).toContain('after todo-1');
  await todos.getByRole('checkbox', { name: 'Done: Write the parser' }).check();
  await expect.poll(() => JSON.parse(fs.readFileSync(path.join(workbench.workspace, '.peon', 'todos.json'), 'utf8')).todos[0].status, { timeout: UI_WAIT }).toBe('completed');
  model.script({ text: 'I see the first step is done.' });
  await sendMessage(chat, 'what is left?');
  await expect.poll(() => peonSays(chat).last().textContent(), { timeout: UI_WAIT }).toBe('I see the first step is done.');
  expect(lastBody()).toContain('todo-1 [completed] (high) Write the parser');
  expect(lastBody()).toContain('todo-2 [pending] (medium) Test the parser');
  // Written from a terminal (`peon tool todowrite`), it shows in the panel as it changes.
  execFileSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'tool', 'todowrite', '--workspace', workbench.workspace, '--input', JSON.stringify({ title: 'From the terminal' })], { env: { ...process.env, PEON_STATE_DIR: path.join(artifactsDir, 'e2e', 'peon-state') } });
  await expect.poll(() => todos.locator('li').count(), { timeout: UI_WAIT }).toBe(3);
  expect(await todos.textContent()).toContain('From the terminal');
});

test('plan mode: approved on its card, a write refused, the plan on its card, approved with its grants', async () => {
  const plan = '# Plan\n\n1. Change `src/app.ts`\n2. Run the tests\n';
  model.script(
    call('p1', 'enterplanmode', { reason: 'a risky change' }),
    call('p2', 'write', { path: 'src/app.ts', content: 'export const app = 2;\n' }),
    call('p3', 'write', { path: '.peon/plans/app.md', content: plan }),
    call('p4', 'exitplanmode', { allow: { files: ['src/**'], commands: ['npm test'] } }),
    call('p5', 'write', { path: 'src/app.ts', content: 'export const app = 2;\n' }),
    { text: 'Done as planned.' },
  );
  const chat = await newChat('change the app, carefully');
  const enter = chat.getByRole('group', { name: /^Approval: / });
  await enter.waitFor({ timeout: UI_WAIT });
  await enter.getByRole('button', { name: 'Approve', exact: true }).click();
  const banner = chat.locator('.plan-banner');
  await banner.waitFor({ timeout: UI_WAIT });
  const card = chat.getByRole('group', { name: 'Approval: Approve the plan' });
  await card.waitFor({ timeout: UI_WAIT });
  // The refused write never showed a card, and changed nothing.
  expect(fs.readFileSync(path.join(workbench.workspace, 'src', 'app.ts'), 'utf8')).toBe('export const app = 1;\n');
  expect(await chat.getByRole('group', { name: 'Tool call write' }).first().textContent()).toContain('Plan mode is on');
  expect(await card.locator('.plan-body h3').textContent()).toBe('Plan');
  expect(await card.locator('.plan-body li').allTextContents()).toEqual(['Change src/app.ts', 'Run the tests']);
  expect(await card.getByRole('group', { name: 'The plan will touch' }).textContent()).toContain('src/**');
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-plan-card.png') });
  await card.getByRole('button', { name: "Approve with the plan's grants" }).click();
  await expect.poll(() => peonSays(chat).last().textContent(), { timeout: UI_WAIT }).toBe('Done as planned.');
  expect(await banner.count()).toBe(0);
  // The declared glob let the write through without a card.
  expect(fs.readFileSync(path.join(workbench.workspace, 'src', 'app.ts'), 'utf8')).toBe('export const app = 2;\n');
  expect(await chat.locator('.grant-tag').count()).toBeGreaterThan(0);
});

test('plan mode survives a reload: the conversation resumed from history is still in plan mode, and a write is still refused', async () => {
  const { page } = workbench;
  model.script(call('r1', 'enterplanmode', {}), { text: 'Planning first.' });
  const chat = await newChat('plan the rename');
  const card = chat.getByRole('group', { name: /^Approval: / });
  await card.waitFor({ timeout: UI_WAIT });
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => peonSays(chat).last().textContent(), { timeout: UI_WAIT }).toBe('Planning first.');
  const banner = chat.locator('.plan-banner');
  await banner.waitFor({ timeout: UI_WAIT });
  await startNewChat(page);
  await banner.waitFor({ state: 'detached', timeout: UI_WAIT });

  await resumeFromHistory(page, chat, 'plan the rename');
  await banner.waitFor({ timeout: UI_WAIT });
  model.script(call('r2', 'write', { path: 'src/renamed.ts', content: 'x\n' }), { text: 'Still planning.' });
  await sendMessage(chat, 'go ahead');
  await expect.poll(() => peonSays(chat).last().textContent(), { timeout: UI_WAIT }).toBe('Still planning.');
  expect(fs.existsSync(path.join(workbench.workspace, 'src', 'renamed.ts'))).toBe(false);
  expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('Plan mode is on: write may change files only under .peon/plans/');
});
