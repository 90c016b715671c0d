// Debian's Chromium driven by playwright-core (never a browser download).
import fs from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.PEON_CHROMIUM ?? '/usr/bin/chromium';

/** `showScrollbars`: draw scrollbars as VS Code does (headless Chromium hides them unless told). */
export async function launchBrowser({ showScrollbars = false } = {}) {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium package (npm run provision does it as root).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...(showScrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Opens the workbench and waits until VS Code has rendered it. */
export async function openWorkbench(browser, url, { width = 1400, height = 900 } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  return page;
}
