// The built webview in headless Chromium: the context chips above the composer (the
// active editor's, left out and brought back; those an editor command added, removed),
// what a message carries when sent, the `@` picker of files and folders (keyboard and
// mouse), and the chips under a sent message — each checked by what the panel shows and
// what it posts to the host. Screenshots in light and dark at 300 and 200 px.
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
const selection = { kind: 'selection', id: 'c1', path: 'src/index.js', startLine: 3, endLine: 7 };
const folder = { kind: 'folder', id: 'c2', path: 'docs/' };
const problems = { kind: 'problems', id: 'c3', path: 'broken.json' };
const active = { kind: 'editor', id: 'editor', path: 'src/app.js', startLine: 1, endLine: 40, selected: false };
const matches = {
  type: 'fileMatches',
  query: 'ind',
  matches: [
    { path: 'index.js', kind: 'file' },
    { path: 'src/index.ts', kind: 'file' },
    { path: 'src/lib/indexer/', kind: 'folder' },
  ],
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

async function open(messages: unknown[] = [], width?: number): Promise<View> {
  const view = await openStandaloneWebview(browser, width ? { width } : {});
  await view.send([{ type: 'init', entries: [], model: configured }, ...messages]);
  return view;
}
const postedOf = async (view: View, type: string): Promise<unknown[]> => (await view.posted()).filter((m) => (m as { type: string }).type === type);
const chipsRow = (page: Page) => page.getByRole('list', { name: 'Context for the next message' });
const options = (page: Page) => page.getByRole('listbox', { name: 'Files and folders' }).getByRole('option');
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message Peon' });

describe('the chips above the composer', () => {
  test('the active editor rides along; an added chip is removable; a message carries them, the added ones only once', async () => {
    const view = await open([{ type: 'activeEditor', chip: active }, { type: 'context', chips: [selection, folder, problems] }]);
    const row = chipsRow(view.page);
    await row.waitFor();
    expect((await row.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'app.js current file ×',
      'index.js:3–7 ×',
      'docs/ ×',
      'broken.json · problems ×',
    ]);
    await row.getByRole('button', { name: 'Remove docs/' }).click();
    expect(await postedOf(view, 'removeContext')).toEqual([{ type: 'removeContext', id: 'c2' }]);
    expect(await row.getByRole('listitem').count()).toBe(3);

    await composer(view.page).fill('What does this do?');
    await composer(view.page).press('Enter');
    expect(await postedOf(view, 'send')).toEqual([{ type: 'send', text: 'What does this do?', chips: [selection, problems, active] }]);
    // Next message only: the added chips are gone, the active editor's stays.
    expect((await row.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['app.js current file ×']);
    // A chip added for the active file says more: the active editor's steps aside, and is not sent.
    await view.send({ type: 'context', chips: [{ ...selection, path: 'src/app.js' }] });
    await expect.poll(async () => (await row.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['app.js:3–7 ×']);
    await composer(view.page).fill('And this?');
    await composer(view.page).press('Enter');
    expect((await postedOf(view, 'send')).at(-1)).toEqual({ type: 'send', text: 'And this?', chips: [{ ...selection, path: 'src/app.js' }] });
    await view.page.close();
  }, 30_000);

  test('the active editor left out stays out (offered back) until another file is active; its selection reads as one', async () => {
    const view = await open([{ type: 'activeEditor', chip: active }]);
    const row = chipsRow(view.page);
    await row.getByRole('button', { name: 'Leave out the current file (the lines in view): src/app.js, lines 1–40' }).click();
    const back = row.getByRole('button', { name: 'Attach the current file (the lines in view): src/app.js, lines 1–40' });
    expect(await back.textContent()).toBe('+ app.js');
    await composer(view.page).fill('hello');
    await composer(view.page).press('Enter');
    // Scrolling in the same file keeps it out.
    await view.send({ type: 'activeEditor', chip: { ...active, startLine: 20, endLine: 60 } });
    await composer(view.page).fill('again');
    await composer(view.page).press('Enter');
    expect(await postedOf(view, 'send')).toEqual([{ type: 'send', text: 'hello' }, { type: 'send', text: 'again' }]);

    await row.getByRole('button', { name: /^Attach the current file/ }).click();
    await composer(view.page).fill('now with it');
    await composer(view.page).press('Enter');
    expect((await postedOf(view, 'send')).at(-1)).toEqual({ type: 'send', text: 'now with it', chips: [{ ...active, startLine: 20, endLine: 60 }] });

    // Left out again, then another file becomes active: that one rides along.
    await row.getByRole('button', { name: /^Leave out the current file/ }).click();
    await view.send({ type: 'activeEditor', chip: { kind: 'editor', id: 'editor', path: 'README.md', startLine: 2, endLine: 4, selected: true } });
    await expect.poll(async () => (await row.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['README.md:2–4 selection ×']);
    await view.send({ type: 'activeEditor', chip: null });
    await row.waitFor({ state: 'detached' });
    await view.page.close();
  }, 30_000);
});

describe('the @ picker', () => {
  test('asks the host as the path is typed, shows its answer, picks by keyboard: @path in the text and a chip', async () => {
    const view = await open();
    const box = composer(view.page);
    await box.click();
    await view.page.keyboard.type('look at @');
    await view.page.keyboard.type('ind');
    expect(await postedOf(view, 'findFiles')).toEqual([
      { type: 'findFiles', query: '' },
      { type: 'findFiles', query: 'i' },
      { type: 'findFiles', query: 'in' },
      { type: 'findFiles', query: 'ind' },
    ]);
    await view.send(matches);
    await options(view.page).first().waitFor();
    expect((await options(view.page).allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['· index.js', '· index.ts src', '▸ indexer/ src/lib']);
    expect(await options(view.page).first().locator('b').allTextContents()).toEqual(['ind']);
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options(view.page).first().getAttribute('id'));
    await view.page.keyboard.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options(view.page).nth(1).getAttribute('id'));
    await view.page.keyboard.press('Enter');
    expect(await box.inputValue()).toBe('look at @src/index.ts ');
    expect(await view.page.getByRole('listbox', { name: 'Files and folders' }).count()).toBe(0);
    const [added] = (await postedOf(view, 'addContext')) as { chip: { id: string } }[];
    expect(added).toEqual({ type: 'addContext', chip: { kind: 'file', id: expect.any(String), path: 'src/index.ts' } });
    expect((await chipsRow(view.page).getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['index.ts ×']);

    // A folder, picked with Tab; the message then carries both.
    await view.page.keyboard.type('and @ind');
    await view.send(matches);
    await options(view.page).first().waitFor();
    await view.page.keyboard.press('ArrowUp');
    await view.page.keyboard.press('Tab');
    expect(await box.inputValue()).toBe('look at @src/index.ts and @src/lib/indexer/ ');
    await view.page.keyboard.press('Enter');
    expect((await postedOf(view, 'send')).at(-1)).toEqual({
      type: 'send',
      text: 'look at @src/index.ts and @src/lib/indexer/ ', // the host trims it
      chips: [
        { kind: 'file', id: added!.chip.id, path: 'src/index.ts' },
        { kind: 'folder', id: expect.any(String), path: 'src/lib/indexer/' },
      ],
    });
    await view.page.close();
  }, 30_000);

  test('by mouse; Escape closes it (Enter then sends); no match says so; an e-mail address offers nothing', async () => {
    const view = await open();
    const box = composer(view.page);
    await box.click();
    await view.page.keyboard.type('@ind');
    await view.send(matches);
    await options(view.page).nth(0).click();
    expect(await box.inputValue()).toBe('@index.js ');
    expect(await box.evaluate((el: { selectionStart: number }) => el.selectionStart)).toBe(10);

    await view.page.keyboard.type('@zzz');
    await view.send({ type: 'fileMatches', query: 'zzz', matches: [] });
    await view.page.getByText('No file or folder matches').waitFor();
    expect(await view.page.getByRole('status').filter({ hasText: 'No file or folder matches' }).textContent()).toBe('No file or folder matches “zzz”.');
    await view.page.keyboard.press('Escape');
    expect(await view.page.getByText('No file or folder matches').count()).toBe(0);
    await view.page.keyboard.press('Enter');
    expect((await postedOf(view, 'send')).at(-1)).toEqual({ type: 'send', text: '@index.js @zzz', chips: [{ kind: 'file', id: expect.any(String), path: 'index.js' }] });

    const before = (await postedOf(view, 'findFiles')).length;
    await box.click();
    await view.page.keyboard.type('mail me@ind');
    await view.send(matches);
    expect(await options(view.page).count()).toBe(0);
    expect((await postedOf(view, 'findFiles')).length).toBe(before);
    await view.page.close();
  }, 30_000);
});

describe('under a sent message', () => {
  test('the chips it carried, what was cut or refused, and each opens its file', async () => {
    const view = await open([
      {
        type: 'append',
        entry: {
          kind: 'user',
          id: 'u1',
          text: 'What do these do?',
          context: [
            { label: 'index.js:3–7', path: 'src/index.js', line: 3 },
            { label: 'big.log', path: 'big.log', note: 'lines 1–500 of 200000' },
            { label: 'secret.txt', path: '/etc/secret.txt', note: 'not attached: not a file of this workspace', refused: true },
          ],
        },
      },
    ]);
    const sent = view.page.getByRole('list', { name: 'Context sent with this message' });
    expect((await sent.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'index.js:3–7',
      'big.log lines 1–500 of 200000',
      'secret.txt not attached: not a file of this workspace',
    ]);
    await sent.getByRole('button', { name: 'index.js:3–7' }).click();
    await sent.getByRole('button', { name: 'big.log' }).click();
    expect(await sent.getByRole('button', { name: 'secret.txt' }).count()).toBe(0);
    expect(await postedOf(view, 'openFile')).toEqual([{ type: 'openFile', path: 'src/index.js', line: 3 }, { type: 'openFile', path: 'big.log' }]);
    await view.page.close();
  }, 30_000);
});

// Light Modern's and Dark Modern's colours for the variables these use (set through the CSSOM: the CSP forbids inline styles).
const THEMES: Record<'light' | 'dark' | 'high-contrast', Record<string, string>> = {
  'high-contrast': {
    '--vscode-foreground': '#ffffff',
    '--vscode-descriptionForeground': '#ffffff',
    '--vscode-sideBar-background': '#000000',
    '--vscode-input-background': '#000000',
    '--vscode-input-foreground': '#ffffff',
    '--vscode-input-border': '#6fc3df',
    '--vscode-badge-background': '#000000',
    '--vscode-badge-foreground': '#ffffff',
    '--vscode-focusBorder': '#f38518',
    '--vscode-button-background': '#000000',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-border': '#6fc3df',
    '--vscode-panel-border': '#6fc3df',
    '--vscode-textLink-foreground': '#21a6ff',
    '--vscode-editorSuggestWidget-background': '#0c141f',
    '--vscode-editorSuggestWidget-border': '#6fc3df',
    '--vscode-editorSuggestWidget-highlightForeground': '#f38518',
    '--vscode-list-focusOutline': '#f38518',
    '--vscode-editorWarning-foreground': '#ff0000',
    '--vscode-inputValidation-warningBorder': '#6fc3df',
    '--vscode-font-family': 'system-ui, sans-serif',
    '--vscode-font-size': '13px',
  },
  light: {
    '--vscode-foreground': '#3b3b3b',
    '--vscode-descriptionForeground': '#3b3b3b',
    '--vscode-sideBar-background': '#f8f8f8',
    '--vscode-input-background': '#ffffff',
    '--vscode-input-foreground': '#3b3b3b',
    '--vscode-input-border': '#cecece',
    '--vscode-badge-background': '#cccccc',
    '--vscode-badge-foreground': '#3b3b3b',
    '--vscode-focusBorder': '#005fb8',
    '--vscode-button-background': '#005fb8',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-panel-border': '#e5e5e5',
    '--vscode-textLink-foreground': '#005fb8',
    '--vscode-editorSuggestWidget-background': '#f8f8f8',
    '--vscode-editorSuggestWidget-border': '#c8c8c8',
    '--vscode-editorSuggestWidget-selectedBackground': '#e8e8e8',
    '--vscode-editorSuggestWidget-highlightForeground': '#0066bf',
    '--vscode-list-hoverBackground': '#f2f2f2',
    '--vscode-widget-shadow': 'rgba(0, 0, 0, 0.16)',
    '--vscode-editorWarning-foreground': '#bf8803',
    '--vscode-inputValidation-warningBorder': '#bf8803',
    '--vscode-font-family': 'system-ui, sans-serif',
    '--vscode-font-size': '13px',
  },
  dark: {
    '--vscode-foreground': '#cccccc',
    '--vscode-descriptionForeground': '#9d9d9d',
    '--vscode-sideBar-background': '#181818',
    '--vscode-input-background': '#313131',
    '--vscode-input-foreground': '#cccccc',
    '--vscode-input-border': '#3c3c3c',
    '--vscode-badge-background': '#616161',
    '--vscode-badge-foreground': '#f8f8f8',
    '--vscode-focusBorder': '#0078d4',
    '--vscode-button-background': '#0078d4',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-panel-border': '#2b2b2b',
    '--vscode-textLink-foreground': '#4daafc',
    '--vscode-editorSuggestWidget-background': '#202020',
    '--vscode-editorSuggestWidget-border': '#454545',
    '--vscode-editorSuggestWidget-selectedBackground': '#04395e',
    '--vscode-editorSuggestWidget-highlightForeground': '#2aaaff',
    '--vscode-list-hoverBackground': '#2a2d2e',
    '--vscode-widget-shadow': 'rgba(0, 0, 0, 0.36)',
    '--vscode-editorWarning-foreground': '#cca700',
    '--vscode-inputValidation-warningBorder': '#b89500',
    '--vscode-font-family': 'system-ui, sans-serif',
    '--vscode-font-size': '13px',
  },
};

describe('screenshots (test-results/e2e/)', () => {
  const out = path.resolve('test-results', 'e2e');
  test.each([
    ['light', 300],
    ['dark', 300],
    ['light', 200],
    ['dark', 200],
    ['high-contrast', 300],
  ] as const)('chips, a sent message and the @ picker, %s, %i px', async (theme, width) => {
    fs.mkdirSync(out, { recursive: true });
    const view = await open(
      [
        {
          type: 'append',
          entry: {
            kind: 'user',
            id: 'u1',
            text: 'What do these lines do?',
            context: [
              { label: 'index.js:3–7', path: 'index.js', line: 3 },
              { label: 'legacy.js', path: 'legacy.js', note: 'lines 1–500 of 1,204' },
              { label: 'secret.txt', path: '/etc/secret.txt', note: 'not attached: not a file of this workspace', refused: true },
            ],
          },
        },
        { type: 'append', entry: { kind: 'assistant', id: 'a1', text: 'They normalise the pattern before it is matched.' } },
        { type: 'activeEditor', chip: { ...active, path: 'index.js', startLine: 1, endLine: 30 } },
        { type: 'context', chips: [{ ...selection, path: 'legacy.js', startLine: 12, endLine: 18 }, { ...problems, path: 'package.json' }, { kind: 'folder', id: 'c4', path: 'test/fixtures/' }] },
      ],
      width,
    );
    await view.page.evaluate((vars: Record<string, string>) => Object.entries(vars).forEach(([name, value]) => document.documentElement.style.setProperty(name, value)), THEMES[theme]);
    await composer(view.page).click();
    await view.page.keyboard.type('and @ind');
    await view.send(matches);
    await options(view.page).first().waitFor();
    await view.page.screenshot({ path: path.join(out, `context-chips-${theme}-${width}px.png`) });
    await view.page.close();
  }, 30_000);
});
