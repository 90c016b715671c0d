#!/usr/bin/env node
// Writes VS Code's default keybindings (the pinned code-server's, VS Code 1.99) to
// test/fixtures/vscode-keybindings.json: every chord bound by default on Linux, macOS and
// Windows, modifiers in one order. test/unit/keybindings.test.ts checks Peon's own
// keybindings against it. The workbench builds "Open Default Keyboard Shortcuts (JSON)"
// for the platform its browser reports, so each platform is one page with that
// platform's user agent; a throwaway extension's test module reads the document.
// Run again (node test/vscode/defaultKeybindings.mjs) when the pinned VS Code changes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODE_SERVER_VERSION, repoRoot } from '../../scripts/paths.mjs';
import { launchBrowser } from './browser.mjs';
import { startCodeServer } from './codeServer.mjs';

const AGENTS = {
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  win: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
};

/** "shift+alt+cmd+k ctrl+c" as "alt+cmd+shift+k ctrl+c": each chord's modifiers sorted. */
export const normalizeKey = (key) =>
  key
    .toLowerCase()
    .trim()
    .split(/\s+/)
    .map((chord) => {
      const parts = chord.split('+');
      const last = parts.pop();
      return [...parts.sort(), last].join('+');
    })
    .join(' ');

async function main() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-keys-'));
  const extension = path.join(scratch, 'ext');
  fs.mkdirSync(extension);
  fs.mkdirSync(path.join(scratch, 'ws'));
  fs.writeFileSync(path.join(extension, 'package.json'), JSON.stringify({ name: 'keys', publisher: 'peon-test', version: '0.0.1', engines: { vscode: '^1.99.0' }, main: './ext.js' }));
  fs.writeFileSync(path.join(extension, 'ext.js'), 'exports.activate = () => {};\n');
  fs.writeFileSync(
    path.join(scratch, 'tests.js'),
    `const vscode = require('vscode');
exports.run = async () => {
  await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
  for (let i = 0; i < 300 && !vscode.window.activeTextEditor; i++) await new Promise((r) => setTimeout(r, 100));
  require('fs').writeFileSync(process.env.PEON_KEYS_OUT + '.part', vscode.window.activeTextEditor.document.getText());
  require('fs').renameSync(process.env.PEON_KEYS_OUT + '.part', process.env.PEON_KEYS_OUT);
};\n`,
  );
  const result = { vscode: `code-server ${CODE_SERVER_VERSION}` };
  try {
    for (const [platform, userAgent] of Object.entries(AGENTS)) {
      const out = path.join(scratch, `${platform}.json`);
      const workspace = path.join(scratch, 'ws');
      const server = await startCodeServer({ workspace, env: { PEON_KEYS_OUT: out } });
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage({ userAgent, viewport: { width: 1200, height: 800 } });
        await page.goto(server.workbenchUrl(workspace, [['extensionDevelopmentPath', server.remoteUri(extension)], ['extensionTestsPath', server.remoteUri(path.join(scratch, 'tests.js'))]]));
        for (let i = 0; i < 600 && !fs.existsSync(out); i++) await new Promise((r) => setTimeout(r, 250));
        if (!fs.existsSync(out)) throw new Error(`The default keybindings for ${platform} were not written.`);
      } finally {
        await browser.close();
        await server.stop();
      }
      // The document is JSON with comments (one per line, none inside strings).
      const bindings = JSON.parse(fs.readFileSync(out, 'utf8').replace(/^\s*\/\/.*$/gm, ''));
      result[platform] = [...new Set(bindings.map((b) => normalizeKey(b.key)))].sort();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const file = path.join(repoRoot, 'test', 'fixtures', 'vscode-keybindings.json');
  fs.writeFileSync(file, `${JSON.stringify(result, null, 1)}\n`);
  console.log(`${file}: ${Object.entries(result).filter(([k]) => k !== 'vscode').map(([k, v]) => `${k} ${v.length} chords`).join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
