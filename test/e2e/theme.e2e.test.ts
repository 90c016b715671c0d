import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { openPeonView, openPeonWorkbench, pickColorTheme, UI_WAIT, type Workbench } from './workbench';

let workbench: Workbench;
let chat: FrameLocator;

beforeAll(async () => {
  workbench = await openPeonWorkbench();
  chat = await openPeonView(workbench.page);
  await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
});

afterAll(async () => {
  await workbench?.close();
});

/** Relative luminance of a computed `rgb(...)` colour, 0 (black) to 1 (white). */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number).map((c) => c / 255);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

async function panelColours() {
  return chat.locator('body').evaluate((body) => {
    const view = body.ownerDocument.defaultView!;
    const textarea = body.querySelector('textarea')!;
    const style = view.getComputedStyle(textarea);
    return {
      themeClass: [...body.classList].find((c) => c.startsWith('vscode-')) ?? '',
      background: view.getComputedStyle(body).backgroundColor,
      foreground: view.getComputedStyle(body).color,
      inputBorder: style.borderTopColor,
      contrastBorderVar: view.getComputedStyle(body).getPropertyValue('--vscode-contrastBorder').trim(),
    };
  });
}

test.each([
  ['Dark Modern', 'vscode-dark'],
  ['Dark High Contrast', 'vscode-high-contrast'],
  ['Light Modern', 'vscode-light'],
])('the panel follows the %s theme', async (theme, themeClass) => {
  await pickColorTheme(workbench.page, theme);
  await expect.poll(async () => (await panelColours()).themeClass, { timeout: UI_WAIT }).toBe(themeClass);
  const colours = await panelColours();
  if (themeClass === 'vscode-light') {
    expect(luminance(colours.background)).toBeGreaterThan(0.8);
    expect(luminance(colours.foreground)).toBeLessThan(0.3);
  } else {
    expect(luminance(colours.background)).toBeLessThan(0.2);
    expect(luminance(colours.foreground)).toBeGreaterThan(0.7);
  }
  if (themeClass === 'vscode-high-contrast') {
    // High contrast draws borders in the theme's contrast colour; the composer must too.
    expect(colours.contrastBorderVar).not.toBe('');
    expect(colours.inputBorder).not.toBe('rgba(0, 0, 0, 0)');
  }
  fs.mkdirSync(path.join(artifactsDir, 'e2e'), { recursive: true });
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', `peon-panel-${themeClass}.png`) });
});
