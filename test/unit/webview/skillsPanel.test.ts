// The built webview in headless Chromium: the composer's `/` skill picker (keyboard and
// mouse), the chip a loaded skill shows under the message, the skipped-skills warning,
// "Remember" on a message, the memory view, and a skill's approval card (issue 14),
// each checked by what the panel shows and what it posts to the host.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../vscode/browser.mjs';
import { openStandaloneWebview } from '../../webview/standalonePage.mjs';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

type View = Awaited<ReturnType<typeof openStandaloneWebview>>;
const configured = { state: 'configured', provider: 'anthropic', model: 'claude-test' } as const;
const SHA = '3f'.repeat(32);
const skills = {
  type: 'skills',
  skills: [
    { name: 'review', description: 'Reviews the current diff for bugs and style.', source: '.peon/skills/review/SKILL.md', fork: false },
    { name: 'release-notes', description: 'Drafts release notes from the commits since the last tag.', source: '~/.peon/skills/release-notes/SKILL.md', fork: false },
    { name: 'survey', description: 'Surveys the repository in the background and reports.', source: '.peon/skills/survey/SKILL.md', fork: true },
  ],
  problems: [],
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

async function open(messages: unknown[] = []): Promise<View> {
  const view = await openStandaloneWebview(browser);
  await view.send([{ type: 'init', entries: [], model: configured }, ...messages]);
  return view;
}
const postedOf = async (view: View, type: string): Promise<unknown[]> => (await view.posted()).filter((m) => (m as { type: string }).type === type);
const options = (page: Page) => page.getByRole('listbox', { name: 'Skills' }).getByRole('option');
const selected = (page: Page) => page.getByRole('listbox', { name: 'Skills' }).locator('[aria-selected="true"] .skill-option-name').textContent();

const DARK: Record<string, string> = {
  '--vscode-foreground': '#cccccc',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-sideBar-background': '#181818',
  '--vscode-editorWidget-background': '#202020',
  '--vscode-editorSuggestWidget-background': '#202020',
  '--vscode-editorSuggestWidget-border': '#454545',
  '--vscode-editorSuggestWidget-selectedBackground': '#04395e',
  '--vscode-widget-shadow': 'rgba(0, 0, 0, 0.36)',
  '--vscode-panel-border': '#2b2b2b',
  '--vscode-focusBorder': '#0078d4',
  '--vscode-input-background': '#313131',
  '--vscode-input-foreground': '#cccccc',
  '--vscode-input-border': '#3c3c3c',
  '--vscode-button-background': '#0078d4',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-secondaryBackground': '#313131',
  '--vscode-button-secondaryForeground': '#cccccc',
  '--vscode-textLink-foreground': '#4daafc',
  '--vscode-editorWarning-foreground': '#cca700',
  '--vscode-inputValidation-infoBackground': '#063b49',
  '--vscode-inputValidation-warningBackground': '#352a05',
  '--vscode-inputValidation-warningBorder': '#b89500',
  '--vscode-font-family': 'system-ui, sans-serif',
  '--vscode-font-size': '13px',
};
const applyTheme = (page: Page): Promise<void> => page.evaluate((vars) => Object.entries(vars).forEach(([name, value]) => document.documentElement.style.setProperty(name, value)), DARK);

describe('the composer offers skills after /', () => {
  test('filtered as typed, picked by keyboard (arrows, Enter, Tab), closed by Escape; a / in a path offers nothing', async () => {
    const view = await open([skills]);
    const composer = view.page.getByRole('textbox', { name: 'Message Peon' });
    await composer.click();
    await view.page.keyboard.type('/');
    expect(await options(view.page).allTextContents()).toEqual([expect.stringMatching(/^\/release-notes/), expect.stringMatching(/^\/review/), expect.stringMatching(/^\/survey\s*subagent/)]);
    expect(await composer.getAttribute('aria-activedescendant')).toBe(await options(view.page).first().getAttribute('id'));
    await view.page.keyboard.type('re');
    // Names that start with it, then a description that holds it ("repository").
    expect(await options(view.page).locator('.skill-option-name').allTextContents()).toEqual(['/release-notes', '/review', '/survey']);
    expect(await selected(view.page)).toBe('/release-notes');
    await view.page.keyboard.press('ArrowUp'); // wraps
    expect(await selected(view.page)).toBe('/survey');
    await view.page.keyboard.press('ArrowDown');
    await view.page.keyboard.press('ArrowDown');
    expect(await selected(view.page)).toBe('/review');
    await view.page.keyboard.press('Enter');
    expect(await composer.inputValue()).toBe('/review ');
    expect(await options(view.page).count()).toBe(0);
    expect(await postedOf(view, 'send')).toEqual([]); // Enter picked; it did not send

    // After a space, Tab picks; the text typed after it stays.
    await view.page.keyboard.type('the diff, then /su');
    await view.page.keyboard.press('Tab');
    expect(await composer.inputValue()).toBe('/review the diff, then /survey ');
    // Escape closes the picker; Enter then sends as typed.
    await view.page.keyboard.type('/rel');
    await view.page.keyboard.press('Escape');
    expect(await options(view.page).count()).toBe(0);
    await view.page.keyboard.press('Enter');
    expect(await postedOf(view, 'send')).toEqual([{ type: 'send', text: '/review the diff, then /survey /rel' }]);

    await view.page.keyboard.type('see src/');
    expect(await options(view.page).count()).toBe(0);

    // A name typed out in full: Enter sends it as it is.
    await composer.fill('');
    await view.page.keyboard.type('/survey');
    expect(await options(view.page).count()).toBe(1);
    await view.page.keyboard.press('Enter');
    expect((await postedOf(view, 'send')).at(-1)).toEqual({ type: 'send', text: '/survey' });
    await view.page.close();
  }, 30_000);

  test('a click picks; without skills a / offers nothing', async () => {
    const view = await open([skills]);
    const composer = view.page.getByRole('textbox', { name: 'Message Peon' });
    await composer.click();
    await view.page.keyboard.type('fix it /');
    await options(view.page).filter({ hasText: '/survey' }).click();
    expect(await composer.inputValue()).toBe('fix it /survey ');
    expect(await composer.evaluate((el) => el === document.activeElement)).toBe(true);
    await view.send({ type: 'skills', skills: [], problems: [] });
    await composer.fill('');
    await view.page.keyboard.type('/');
    expect(await view.page.getByRole('listbox').count()).toBe(0);
    await view.page.close();
  }, 30_000);
});

describe('skills in the chat', () => {
  test('a chip under the message: name, source, hash, the subagent it forked, what it hides, why it failed', async () => {
    const view = await open([
      { type: 'append', entry: { kind: 'user', id: 'e1', text: '/review\n/survey' } },
      { type: 'append', entry: { kind: 'skill', id: 'e2', name: 'review', source: '.peon/skills/review/SKILL.md', sha256: SHA, hidden: ['2 tag characters', 'tag characters spelling "hi"'] } },
      { type: 'append', entry: { kind: 'skill', id: 'e3', name: 'survey', source: '.peon/skills/survey/SKILL.md', sha256: SHA, hidden: [], forked: 'skill-survey' } },
      { type: 'append', entry: { kind: 'skill', id: 'e4', name: 'gone', source: '.peon/skills/gone/SKILL.md', hidden: [], error: 'it no longer exists' } },
    ]);
    const review = view.page.getByRole('group', { name: 'Skill review' });
    expect(await review.getAttribute('title')).toBe(`.peon/skills/review/SKILL.md\nSHA-256 ${SHA}`);
    expect(await review.locator('.skill-chip-hash').getAttribute('aria-label')).toBe(`SHA-256 ${SHA}`);
    expect(await review.getByRole('alert').textContent()).toContain('It hides characters you cannot see: 2 tag characters; tag characters spelling "hi"');
    expect(await view.page.getByRole('group', { name: 'Skill survey' }).textContent()).toContain('→ subagent skill-survey');
    expect(await view.page.getByRole('group', { name: 'Skill survey' }).getByRole('alert').count()).toBe(0);
    expect(await view.page.getByRole('group', { name: 'Skill gone' }).getByRole('alert').textContent()).toBe('not loaded: it no longer exists');
    await view.page.close();
  }, 30_000);

  test('skipped skills: one warning with the reasons, dismissed until the list changes', async () => {
    const problems = ['Skill .claude/skills/x/SKILL.md skipped: the name "X" is not lowercase.', 'Skill .peon/skills skipped: not loaded: the workspace is not trusted (Restricted Mode).'];
    const view = await open([{ ...skills, problems }]);
    const warning = view.page.getByRole('region', { name: 'Skills skipped' });
    expect(await warning.locator('summary').textContent()).toBe('2 skills were skipped (click for why)');
    await warning.locator('summary').click();
    expect(await warning.locator('li').allTextContents()).toEqual(problems);
    await warning.getByRole('button', { name: 'Dismiss the skipped skills warning' }).click();
    expect(await warning.count()).toBe(0);
    await view.send({ ...skills, problems }); // the same list again (a setting changed): still dismissed
    await view.send({ type: 'busy', busy: false });
    expect(await warning.count()).toBe(0);
    await view.send({ ...skills, problems: [problems[0]] });
    await warning.waitFor();
    expect(await warning.locator('summary').textContent()).toBe('A skill was skipped (click for why)');
    await view.page.close();
  }, 30_000);

  test("a skill's approval card: name, source, the whole SHA-256, what it hides, the subagent it starts", async () => {
    const view = await open([
      {
        type: 'approval',
        card: { id: 'a1', tool: 'loadskill', risk: 'read_only', summary: { kind: 'skill', name: 'survey', source: '.peon/skills/survey/SKILL.md', sha256: SHA, hidden: ['1 bidi control'], fork: 'explorer' }, source: 'peon.permission.rules: loadskill ask', reasons: ['a rule asks'], grantable: [], sessionGrants: [], canAlways: false, canOpenDiff: false },
      },
    ]);
    const card = view.page.getByRole('group', { name: 'Approval: Run the skill survey' });
    await card.waitFor();
    expect(await card.locator('.skill-facts dd').allTextContents()).toEqual(['survey', '.peon/skills/survey/SKILL.md', SHA]);
    expect(await card.getByRole('alert', { name: 'Hidden characters' }).textContent()).toBe('It hides 1 bidi control');
    expect(await card.locator('p.warning').textContent()).toBe('Loading it starts an explorer subagent in the background, with the skill as its task.');
    await view.page.close();
  }, 30_000);
});

describe('memory', () => {
  test('"Remember" on a message posts its entry id; it is a labelled button, there for the keyboard', async () => {
    const view = await open([
      { type: 'append', entry: { kind: 'user', id: 'e1', text: 'We deploy with make release' } },
      { type: 'append', entry: { kind: 'assistant', id: 'e2', text: 'Noted: `make release`.' } },
      { type: 'append', entry: { kind: 'notice', id: 'e3', level: 'info', text: 'Stopped.' } },
    ]);
    expect(await view.page.getByRole('button', { name: /^Remember this message/ }).count()).toBe(2);
    // Not in the message's own text (what a test or a screen reader reads as the message).
    expect(await view.page.getByRole('article', { name: 'Peon' }).textContent()).toBe('Noted: make release.');
    await view.page.getByRole('button', { name: "Remember this message (Peon's)" }).focus();
    await view.page.keyboard.press('Enter');
    await view.page.getByRole('button', { name: 'Remember this message (yours)' }).click();
    expect(await postedOf(view, 'remember')).toEqual([
      { type: 'remember', entryId: 'e2' },
      { type: 'remember', entryId: 'e1' },
    ]);
    await view.page.close();
  }, 30_000);

  test('the memory view lists entries (title, id, kind, stale, date), opens and deletes by id, keeps curated files, and goes back', async () => {
    const view = await open([{ type: 'append', entry: { kind: 'user', id: 'e1', text: 'hello' } }]);
    await view.page.getByRole('button', { name: 'Memory', exact: true }).click();
    expect(await postedOf(view, 'listMemory')).toEqual([{ type: 'listMemory' }]);
    const memory = view.page.getByRole('region', { name: 'Memory' });
    expect(await memory.locator('.memory-count').textContent()).toBe('loading…');
    await view.send({
      type: 'memory',
      enabled: true,
      entries: [
        { id: 'obs-0a1b2c', kind: 'observation', title: 'We deploy with make release', file: '.peon/memory/observations/obs-0a1b2c.md', created: '2025-03-01T10:00:00.000Z', stale: true },
        { id: 'sum-ffee00', kind: 'summary', title: 'Moved the store to SQLite', file: '.peon/memory/summaries/sum-ffee00.md', created: '2025-02-01T10:00:00.000Z', stale: false },
        { id: 'cur-agents-md', kind: 'curated', title: 'Team notes', file: 'AGENTS.md', stale: false },
      ],
    });
    expect(await memory.locator('.memory-count').textContent()).toBe('3 entries');
    const obs = memory.getByRole('listitem', { name: 'Memory entry obs-0a1b2c' });
    expect(await obs.locator('.memory-title').textContent()).toBe('We deploy with make release');
    expect(await obs.locator('.memory-kind').textContent()).toBe('observation');
    expect(await obs.locator('.memory-stale').textContent()).toBe('stale');
    expect(await obs.locator('time').getAttribute('datetime')).toBe('2025-03-01T10:00:00.000Z');
    expect(await memory.getByRole('listitem', { name: 'Memory entry sum-ffee00' }).locator('.memory-stale').count()).toBe(0);
    const curated = memory.getByRole('listitem', { name: 'Memory entry cur-agents-md' });
    expect(await curated.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await curated.locator('.memory-curated').textContent()).toBe('your file (AGENTS.md): edit or delete it yourself');
    // The transcript is not shown under it; Remember is not reachable from here.
    expect(await view.page.getByRole('region', { name: 'Conversation' }).count()).toBe(0);
    await curated.getByRole('button', { name: 'Open cur-agents-md' }).click();
    await obs.getByRole('button', { name: 'Delete obs-0a1b2c' }).click();
    expect(await postedOf(view, 'openMemory')).toEqual([{ type: 'openMemory', id: 'cur-agents-md' }]);
    expect(await postedOf(view, 'deleteMemory')).toEqual([{ type: 'deleteMemory', id: 'obs-0a1b2c' }]);
    await memory.getByRole('button', { name: '← Chat' }).click();
    await view.page.getByRole('region', { name: 'Conversation' }).waitFor();
    expect(await memory.count()).toBe(0);
    await view.page.close();
  }, 30_000);

  test('memory off, or nothing remembered yet, is said so', async () => {
    const view = await open();
    await view.page.getByRole('button', { name: 'Memory', exact: true }).click();
    await view.send({ type: 'memory', enabled: false, entries: [] });
    const memory = view.page.getByRole('region', { name: 'Memory' });
    expect(await memory.locator('.notice.warning').textContent()).toContain('Memory is off (peon.memory.enabled)');
    expect(await memory.locator('.memory-empty').textContent()).toBe('Nothing remembered yet.');
    await view.page.close();
  }, 30_000);
});

describe('screenshots (test-results/)', () => {
  test('the skill picker over a chat with a chip, and the memory view, in a dark theme', async () => {
    const out = path.resolve('test-results');
    fs.mkdirSync(out, { recursive: true });
    const view = await open([
      skills,
      { type: 'append', entry: { kind: 'user', id: 'e1', text: '/review the parser change' } },
      { type: 'append', entry: { kind: 'skill', id: 'e2', name: 'review', source: '.peon/skills/review/SKILL.md', sha256: SHA, hidden: [] } },
      { type: 'append', entry: { kind: 'assistant', id: 'e3', text: 'The parser change looks right; one nit in `lexer.ts`.' } },
    ]);
    await applyTheme(view.page);
    await view.page.getByRole('textbox', { name: 'Message Peon' }).click();
    await view.page.keyboard.type('then /');
    await view.page.keyboard.press('ArrowDown');
    await view.page.getByRole('article', { name: 'Peon' }).hover();
    await view.page.screenshot({ path: path.join(out, 'skill-picker.png') });
    await view.page.keyboard.press('Escape');
    await view.page.getByRole('button', { name: 'Memory', exact: true }).click();
    await view.send({
      type: 'memory',
      enabled: true,
      entries: [
        { id: 'obs-0a1b2c', kind: 'observation', title: 'We deploy with make release', file: '.peon/memory/observations/obs-0a1b2c.md', created: '2025-03-01T10:00:00.000Z', stale: true },
        { id: 'sum-ffee00', kind: 'summary', title: 'Moved the store to SQLite', file: '.peon/memory/summaries/sum-ffee00.md', created: '2025-02-01T10:00:00.000Z', stale: false },
        { id: 'cur-agents-md', kind: 'curated', title: 'Team notes', file: 'AGENTS.md', stale: false },
      ],
    });
    await view.page.getByRole('listitem', { name: 'Memory entry cur-agents-md' }).waitFor();
    await view.page.screenshot({ path: path.join(out, 'memory-view.png') });
    await view.page.close();
  }, 30_000);
});
