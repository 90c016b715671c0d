// What a conversation's sandbox says before any command (CommandSandbox.status, which the
// panel shows as the chat opens): sandboxed here (bubblewrap is installed by the project's
// provisioning), off when the person turned it off, unavailable on a platform without one,
// and refused when the sandbox is required.
import fs from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { CommandSandbox, type SandboxSettings } from '../../../src/core/sandbox/commandSandbox';
import { tempDir } from '../tools/toolTestContext';

const opened: CommandSandbox[] = [];
afterEach(() => opened.splice(0).forEach((s) => s.dispose()));

function sandbox(settings: Partial<SandboxSettings>, platform?: NodeJS.Platform): CommandSandbox {
  const folder = fs.realpathSync(tempDir('peon-sbx-status-'));
  const made = new CommandSandbox({ settings: () => ({ mode: 'workspace-write', network: false, required: false, ...settings }), folders: [folder], env: { PATH: process.env.PATH }, home: tempDir('peon-sbx-home-'), ...(platform ? { platform } : {}) });
  opened.push(made);
  return made;
}

test('here: sandboxed, with the network off', async () => {
  expect(await sandbox({}).status()).toMatchObject({ state: 'sandboxed', text: expect.stringMatching(/^Sandboxed — writes: .*, private \/tmp · network off/) });
  expect(await sandbox({ network: true }).status()).toMatchObject({ state: 'network', text: expect.stringMatching(/^Sandboxed, network ON — /) });
});

test('off, or a platform without a sandbox: red, saying why; required: refused', async () => {
  expect(await sandbox({ mode: 'off' }).status()).toEqual({ state: 'unsandboxed', text: 'NOT sandboxed — the sandbox is off (peon.sandbox.mode): full access to your files and network' });
  expect(await sandbox({}, 'darwin').status()).toEqual({ state: 'unsandboxed', text: 'NOT sandboxed — no sandbox on this platform (only Linux has one): full access to your files and network' });
  expect(await sandbox({ required: true }, 'win32').status()).toEqual({ state: 'unsandboxed', text: 'NOT sandboxed — no sandbox on this platform (only Linux has one), and peon.sandbox.required is on: nothing was run.' });
});

test('a workspace folder holding /tmp or /run is not sandboxed: the sandbox would have to replace it', async () => {
  const made = new CommandSandbox({ settings: () => ({ mode: 'workspace-write', network: false, required: false }), folders: ['/'], env: { PATH: process.env.PATH } });
  opened.push(made);
  expect(await made.status()).toEqual({ state: 'unsandboxed', text: 'NOT sandboxed — the workspace folder / holds /tmp, /run or your runtime folder, which the sandbox must replace: full access to your files and network' });
});
