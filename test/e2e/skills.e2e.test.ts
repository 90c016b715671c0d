import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, sendMessage, startNewChat, UI_WAIT, type Workbench } from './workbench';

// Skills and memory in the real VS Code (issue 14): `/` in the composer offers the
// workspace's skills and the one picked reaches the model as its `<skill:name>` block,
// with a chip under the message; a `context: fork` skill starts its subagent in the
// strip; "Remember" on a message writes an observation that the model's mem-search then
// finds, and the memory view lists it, opens it in the editor and deletes it after
// VS Code's modal asks. The model is the scripted server.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;
const shots = path.join(artifactsDir, 'e2e');

const skill = (name: string, description: string, front: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n${front}---\n${body}`;

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench(
    {
      'README.md': '# project\n',
      'src/app.ts': 'export const app = 1;\n',
      '.peon/skills/review/SKILL.md': skill('review', 'Reviews the change for bugs.', '', '# Review\n\nRead every changed file and list the bugs you find.\n'),
      '.peon/skills/survey/SKILL.md': skill('survey', 'Surveys the repository in the background.', 'context: fork\nagent: explorer\n', '# Survey\n\nList the files and report.\n'),
    },
    { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl },
  );
  fs.mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

const call = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(input) }] });
const peonSays = (chat: Awaited<ReturnType<typeof openPeonView>>) => chat.getByRole('article', { name: 'Peon' });

const newChat = () => startNewChat(workbench.page);

test('/ offers the skills; the one picked runs: its chip under the message, its block in the request', async () => {
  const chat = await newChat();
  const composer = chat.getByRole('textbox', { name: 'Message Peon' });
  const picker = chat.getByRole('listbox', { name: 'Skills' });
  // The skills arrive when the chat's conversation is assembled: typing `/` waits for them.
  await expect
    .poll(
      async () => {
        await composer.fill('');
        await composer.pressSequentially('/');
        return picker.getByRole('option').locator('.skill-option-name').allTextContents();
      },
      { timeout: UI_WAIT },
    )
    .toEqual(['/review', '/survey']);
  await composer.pressSequentially('re');
  await picker.getByRole('option', { name: /\/review/ }).waitFor({ timeout: UI_WAIT });
  await workbench.page.screenshot({ path: path.join(shots, 'peon-skill-picker.png') });
  await composer.press('Enter');
  expect(await composer.inputValue()).toBe('/review ');
  await composer.pressSequentially('src/app.ts please');
  model.script({ text: 'No bugs in src/app.ts.' });
  await composer.press('Enter');
  await expect.poll(() => peonSays(chat).last().textContent(), { timeout: UI_WAIT }).toBe('No bugs in src/app.ts.');
  const chip = chat.getByRole('group', { name: 'Skill review' });
  expect(await chip.locator('.skill-chip-source').textContent()).toBe('.peon/skills/review/SKILL.md');
  expect(await chip.getAttribute('title')).toMatch(/^\.peon\/skills\/review\/SKILL\.md\nSHA-256 [0-9a-f]{64}$/);
  await workbench.page.screenshot({ path: path.join(shots, 'peon-skill-chip.png') });
  const body = JSON.stringify(model.requests.at(-1)?.body);
  expect(body).toContain('<skill:review');
  expect(body).toContain('Read every changed file and list the bugs you find.');
});

test('a context: fork skill sent with /survey starts its subagent, shown in the strip', async () => {
  const chat = await newChat();
  model.route('skill-survey', { text: 'Two files: README.md and src/app.ts.' });
  model.script({ text: 'The survey runs in the background.' });
  await sendMessage(chat, '/survey');
  const row = chat.getByRole('region', { name: 'Subagents' }).locator('.agent-row', { hasText: 'skill-survey' });
  await row.waitFor({ timeout: UI_WAIT });
  expect(await row.locator('.agent-type').textContent()).toBe('explorer');
  expect(await chat.getByRole('group', { name: 'Skill survey' }).textContent()).toContain('→ subagent skill-survey');
  await expect.poll(() => row.locator('.agent-status').textContent(), { timeout: UI_WAIT }).toBe('completed');
  await expect.poll(() => peonSays(chat).last().textContent(), { timeout: UI_WAIT }).toBe('The survey runs in the background.');
});

test('Remember this writes an observation that mem-search finds; the memory view lists it, opens it, deletes it after asking', async () => {
  const { page } = workbench;
  const chat = await newChat();
  model.script({ text: 'Noted.' });
  await sendMessage(chat, 'We deploy with `make release` from src/app.ts');
  await expect.poll(() => peonSays(chat).last().textContent(), { timeout: UI_WAIT }).toBe('Noted.');
  const mine = chat.locator('.message-row.user').last();
  await mine.hover();
  await mine.getByRole('button', { name: 'Remember this message (yours)' }).click();
  const observations = path.join(workbench.workspace, '.peon', 'memory', 'observations');
  const remembered = chat.getByRole('status').filter({ hasText: /^Remembered as obs-[0-9a-f]{6}: / });
  await remembered.waitFor({ timeout: UI_WAIT });
  const id = /obs-[0-9a-f]{6}/.exec((await remembered.textContent()) ?? '')![0];
  expect(await remembered.textContent()).toBe(`Remembered as ${id}: We deploy with make release from src/app.ts`);
  const file = path.join(observations, `${id}.md`);
  expect(fs.readFileSync(file, 'utf8')).toContain('We deploy with `make release` from src/app.ts');

  // The next turn's mem-search finds it.
  model.script(call('m1', 'mem-search', { query: 'how do we deploy a release' }), { text: 'You deploy with make release.' });
  await sendMessage(chat, 'how do we deploy?');
  await expect.poll(() => peonSays(chat).last().textContent(), { timeout: UI_WAIT }).toBe('You deploy with make release.');
  const card = chat.getByRole('group', { name: 'Tool call mem-search' });
  expect(await card.textContent()).toContain(id);
  expect(JSON.stringify(model.requests.at(-1)?.body)).toContain(id);

  // The memory view: the observation, and the earlier chats' summaries (written when New Chat closed them).
  await chat.getByRole('button', { name: 'Memory', exact: true }).click();
  const memory = chat.getByRole('region', { name: 'Memory' });
  const entry = memory.getByRole('listitem', { name: `Memory entry ${id}` });
  await entry.waitFor({ timeout: UI_WAIT });
  expect(await entry.locator('.memory-title').textContent()).toBe('We deploy with make release from src/app.ts');
  expect(await entry.locator('.memory-kind').textContent()).toBe('observation');
  expect(await memory.locator('.memory-kind', { hasText: 'session summary' }).count()).toBeGreaterThan(0);
  await page.screenshot({ path: path.join(shots, 'peon-memory-view.png') });

  // Open: the file in an editor, the panel still on the memory view.
  await entry.getByRole('button', { name: `Open ${id}` }).click();
  await page.locator('.tabs-container .tab', { hasText: `${id}.md` }).waitFor({ timeout: UI_WAIT });
  await memory.waitFor({ timeout: UI_WAIT });

  // Delete: VS Code's modal asks; only "Delete" removes it.
  await entry.getByRole('button', { name: `Delete ${id}` }).click();
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: UI_WAIT });
  expect(await dialog.textContent()).toContain(`Delete the memory entry ${id}`);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await entry.waitFor({ state: 'detached', timeout: UI_WAIT });
  expect(fs.existsSync(file)).toBe(false);
  await memory.getByRole('button', { name: '← Chat' }).click();
  await expect.poll(() => chat.getByRole('status').allTextContents(), { timeout: UI_WAIT }).toContainEqual(`Deleted ${id} from memory: We deploy with make release from src/app.ts`);
});
