import { execFileSync, spawnSync } from 'node:child_process';
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
/** What `npm run package` printed (vsce's warnings included). */
let packaging: string;

beforeAll(async () => {
  const run = spawnSync(process.execPath, ['scripts/package-vsix.mjs'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  packaging = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`npm run package failed:\n${packaging}`);
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

const unzip = (entry: string): string => execFileSync('unzip', ['-p', vsix, entry], { encoding: 'utf8' });

test('vsce packs it without a warning', () => {
  expect(packaging).toContain('DONE  Packaged');
  expect(packaging).not.toMatch(/WARNING|ERROR/);
});

test('the VSIX holds only what runs, and what VS Code and the registries show of it', () => {
  const listing = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n').sort();
  expect(listing).toEqual(
    [
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/LICENSE.txt',
      'extension/changelog.md',
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
      'extension/media/icon.png',
      'extension/media/peon.svg',
      'extension/package.json',
      'extension/readme.md',
    ].sort(),
  );
});

test('its manifest is one Open VSX accepts: identity, licence, icon; the README without its repository-relative screenshot', () => {
  // Open VSX reads the identity from extension.vsixmanifest and the licence from extension/package.json
  // (eclipse/openvsx ExtensionProcessor.java); test/unit/publish.test.ts checks the fields' values.
  const vsixManifest = unzip('extension.vsixmanifest');
  expect(vsixManifest).toContain(`<Identity Language="en-US" Id="${manifest.name}" Version="${manifest.version}" Publisher="${manifest.publisher}" />`);
  expect(vsixManifest).toContain('<License>extension/LICENSE.txt</License>');
  expect(vsixManifest).toContain('<Icon>extension/media/icon.png</Icon>');
  expect(vsixManifest).toContain('Type="Microsoft.VisualStudio.Services.Content.Changelog" Path="extension/changelog.md"');
  expect(JSON.parse(unzip('extension/package.json')).license).toBe('Apache-2.0');
  expect(unzip('extension/LICENSE.txt')).toBe(fs.readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8'));
  const readme = unzip('extension/readme.md');
  expect(readme.startsWith('# Peon\n\nPeon is a coding agent')).toBe(true);
  expect(readme).not.toMatch(/!\[[^\]]*\]\(media\//);
});

test('installed from the VSIX, Peon opens and renders its composer', async () => {
  const page = await openWorkbench(browser, server.workbenchUrl(workspace));
  const chat = await openPeonView(page);
  await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
  await page.close();
});
