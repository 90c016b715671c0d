import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { repoRoot } from '../../scripts/paths.mjs';
import { launchBrowser, openWorkbench } from '../vscode/browser.mjs';
import { startCodeServer } from '../vscode/codeServer.mjs';
import { openPeonView, UI_WAIT } from './workbench';

// The packaged VSIX, installed the way a user installs it, must work on its own:
// nothing it needs may live outside what .vscodeignore lets through.
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const vsix = path.join(repoRoot, 'dist-vsix', `peon-${manifest.version}.vsix`);
let server: Awaited<ReturnType<typeof startCodeServer>>;
let browser: Browser;
let workspace: string;

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/package-vsix.mjs'], { cwd: repoRoot, stdio: 'ignore' });
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-vsix-'));
  server = await startCodeServer({ workspace, install: [vsix] });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
  // Packaging left a production build in dist/; put the development build back.
  execFileSync(process.execPath, ['esbuild.mjs', '--quiet'], { cwd: repoRoot, stdio: 'ignore' });
});

test('the VSIX holds only what runs', () => {
  const listing = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n').sort();
  expect(listing).toEqual(
    [
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/dist/bin/rg',
      'extension/dist/extension.js',
      'extension/dist/panel.js',
      'extension/dist/runtime.js',
      'extension/dist/markdownWorker.js',
      'extension/dist/webview/codicon.ttf',
      'extension/dist/webview/main.css',
      'extension/dist/webview/highlight.js',
      'extension/dist/webview/main.js',
      'extension/dist/wasm/tree-sitter-bash.wasm',
      'extension/dist/wasm/tree-sitter.wasm',
      'extension/media/peon.svg',
      'extension/package.json',
      'extension/readme.md',
    ].sort(),
  );
});

test('installed from the VSIX, Peon opens and renders its composer', async () => {
  const page = await openWorkbench(browser, server.workbenchUrl(workspace));
  const chat = await openPeonView(page);
  await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
  await page.close();
});
