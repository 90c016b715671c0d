// A real VS Code (code-server) with Peon loaded from this repository, in Chromium.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, ConsoleMessage, FrameLocator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { artifactsDir, repoRoot } from '../../scripts/paths.mjs';
import { launchBrowser, openWorkbench } from '../vscode/browser.mjs';
import { startCodeServer } from '../vscode/codeServer.mjs';

/**
 * How long a test waits for something the panel or VS Code must show: sized for a loaded
 * 2-core machine (a poll returns as soon as its condition holds; only a failure waits this long).
 */
export const UI_WAIT = 60_000;

export interface Workbench {
  readonly page: Page;
  readonly workspace: string;
  /** The user settings.json of this VS Code (user scope). */
  readonly userSettingsFile: string;
  close(): Promise<void>;
}

/**
 * `install`: VSIX files put beside Peon; `enableProposedApi` and `env` go to the server (test fixtures only).
 * `showScrollbars`: Chromium draws scrollbars, as VS Code does (headless hides them by default).
 */
export interface WorkbenchOptions {
  readonly install?: string[];
  readonly enableProposedApi?: string[];
  readonly env?: Record<string, string>;
  readonly showScrollbars?: boolean;
}

/** The workbenches open now, each with the last lines its page logged: a failed test leaves a picture of them (failureShots.ts). */
const open = new Map<Page, string[]>();

/** A screenshot and the console's last lines of every workbench open, named after the failed test. */
export async function keepFailureEvidence(test: string): Promise<void> {
  const dir = path.join(artifactsDir, 'e2e', 'failed');
  fs.mkdirSync(dir, { recursive: true });
  const name = test.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 80);
  let n = 0;
  for (const [page, log] of open) {
    const base = path.join(dir, `${name}${n++ ? `-${n}` : ''}`);
    fs.writeFileSync(`${base}.log`, log.join('\n'));
    await page.screenshot({ path: `${base}.png`, timeout: 10_000 }).catch(() => {});
  }
}

export async function openPeonWorkbench(files: Record<string, string> = {}, userSettings: Record<string, unknown> = {}, { showScrollbars, ...options }: WorkbenchOptions = {}): Promise<Workbench> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-e2e-'));
  const workspace = path.join(scratch, 'workspace');
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(workspace, name)), { recursive: true });
    fs.writeFileSync(path.join(workspace, name), content);
  }
  fs.mkdirSync(workspace, { recursive: true });
  const server = await startCodeServer({ workspace, userSettings, ...options });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser({ showScrollbars });
    const page = await openWorkbench(
      browser,
      server.workbenchUrl(workspace, [['extensionDevelopmentPath', server.remoteUri(repoRoot)]]),
    );
    const opened = browser;
    const log: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      log.push(`${m.type()}: ${m.text()}`.slice(0, 2000));
      if (log.length > 200) log.shift();
    });
    open.set(page, log);
    return {
      page,
      workspace,
      userSettingsFile: path.join(server.userDataDir, 'User', 'settings.json'),
      async close() {
        open.delete(page);
        await opened.close();
        await server.stop();
        fs.rmSync(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    await server.stop();
    throw error;
  }
}

/** Clicks Peon's activity-bar entry (unless Peon is already showing) and returns the chat webview's content frame. */
export async function openPeonView(page: Page): Promise<FrameLocator> {
  // "Peon", or "Peon - An approval is waiting for you" while its badge shows.
  const tab = page.locator('.activitybar li[role="tab"]', { has: page.locator('a.action-label[aria-label^="Peon"]') });
  // Clicking the entry of the container already showing closes the side bar, and after a reload the
  // workbench may mark it shown only after it was looked at (the click then closed it): click until it shows.
  // (A loop of its own: this also runs in beforeAll hooks, where expect.poll cannot.)
  const shown = (): Promise<boolean> => tab.evaluate((li) => li.classList.contains('checked'));
  for (const deadline = Date.now() + UI_WAIT; !(await shown()); ) {
    if (Date.now() > deadline) throw new Error('The Peon view did not show after clicking its activity-bar entry');
    await tab.click();
    // Shown now, or closed by this click (it was being restored): the loop looks again.
    await page.locator('.activitybar li[role="tab"].checked', { has: page.locator('a.action-label[aria-label^="Peon"]') }).waitFor({ timeout: 2000 }).catch(() => {});
  }
  // A webview lives in two nested iframes: VS Code's host frame, then the content frame.
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe');
}

/** Types `text` into the panel's composer and sends it with Enter, as a person would. */
export async function sendMessage(chat: FrameLocator, text: string): Promise<void> {
  const composer = chat.getByRole('textbox', { name: 'Message Peon' });
  await composer.fill(text);
  await composer.press('Enter');
}

/** Opens the panel, starts a new chat and sends `prompt` in it; returns the chat frame. */
export async function sendInNewChat(page: Page, prompt: string): Promise<FrameLocator> {
  const chat = await startNewChat(page);
  await sendMessage(chat, prompt);
  return chat;
}

/**
 * Clicks New Chat in the view's title and waits until it is done: the chat empty and the
 * cursor in its composer. What is typed next goes to the new chat (not to the old one New
 * Chat would then close), and the palette opened next is not closed by its focusing.
 */
export async function startNewChat(page: Page): Promise<FrameLocator> {
  const chat = await openPeonView(page);
  // The page marks which chat it draws: a new mark proves the host started the new chat
  // (a message typed before would go to the chat New Chat then closes), also when the
  // chat was empty already.
  const main = chat.locator('main.chat');
  await expect.poll(() => main.getAttribute('data-chat'), { timeout: UI_WAIT }).not.toBeNull();
  const before = await main.getAttribute('data-chat');
  await page.getByRole('button', { name: 'New Chat' }).click();
  await expect.poll(() => main.getAttribute('data-chat'), { timeout: UI_WAIT }).not.toBe(before);
  await chat.locator('.empty').waitFor({ timeout: UI_WAIT });
  await chat.locator('body').evaluate(
    (body, wait) =>
      new Promise<void>((resolve, reject) => {
        const until = Date.now() + wait;
        const ready = (): boolean => body.ownerDocument.hasFocus() && body.ownerDocument.activeElement?.tagName === 'TEXTAREA';
        const check = (): void => {
          if (ready()) resolve();
          else if (Date.now() > until) reject(new Error('New Chat did not put the cursor in the composer'));
          else setTimeout(check, 50);
        };
        check();
      }),
    UI_WAIT,
  );
  return chat;
}

/** Runs a command from the Command Palette, as a person would. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input.input');
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}

/** Picks a colour theme through "Preferences: Color Theme", by its label ("Dark Modern"). */
export async function pickColorTheme(page: Page, theme: string): Promise<void> {
  await runCommand(page, 'Preferences: Color Theme');
  const input = page.locator('.quick-input-widget .quick-input-box input.input');
  await input.fill(theme);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`^${theme}`) }).first().waitFor();
  await input.press('Enter');
}

/** Drags the side bar's edge until the side bar is `width` px wide (the walkthrough's 300 and 200 px). */
export async function setSideBarWidth(page: Page, width: number): Promise<void> {
  const sidebar = page.locator('.part.sidebar');
  const sidebarWidth = async () => (await sidebar.boundingBox())?.width ?? 0;
  for (let attempt = 0; attempt < 3 && Math.abs((await sidebarWidth()) - width) > 1; attempt++) {
    const edge = await sidebar.evaluate((bar) => {
      const right = bar.getBoundingClientRect().right;
      const sashes = Array.from(bar.ownerDocument.querySelectorAll('.monaco-sash.vertical'), (s: { getBoundingClientRect(): { left: number; width: number; top: number; height: number } }) => s.getBoundingClientRect());
      const sash = sashes.find((r) => r.height > 100 && Math.abs(r.left + r.width / 2 - right) <= 4);
      return sash ? { x: sash.left + sash.width / 2, y: sash.top + sash.height / 2 } : undefined;
    });
    if (!edge) throw new Error('The side bar has no sash to drag');
    await page.mouse.move(edge.x, edge.y);
    await page.mouse.down();
    await page.mouse.move(edge.x + (width - (await sidebarWidth())), edge.y, { steps: 8 });
    await page.mouse.up();
  }
  const reached = await sidebarWidth();
  if (Math.abs(reached - width) > 1) throw new Error(`The side bar is ${reached} px wide, not ${width}`);
}

/** Opens the panel's history view with Peon: Show History and continues the chat titled `title`. */
export async function resumeFromHistory(page: Page, chat: FrameLocator, title: string): Promise<void> {
  await runCommand(page, 'Peon: Show History');
  const history = chat.getByRole('region', { name: 'Chat history' });
  await history.getByRole('button', { name: title, exact: true }).click({ timeout: UI_WAIT });
  await history.waitFor({ state: 'detached', timeout: UI_WAIT });
}
