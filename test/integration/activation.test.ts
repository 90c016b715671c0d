import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { peonExtension, withTimeout } from './peon';

suite('activation', () => {
  test('Peon is not active before its view or a command is used', () => {
    // The suite's first test runs before anything touches Peon: activation must be lazy.
    assert.equal(peonExtension().isActive, false);
  });

  test('Focus Chat activates Peon and its webview renders the composer', async () => {
    await vscode.commands.executeCommand('peon.focusChat');
    const extension = peonExtension();
    assert.equal(extension.isActive, true);
    const report = await withTimeout(extension.exports.chat.whenRendered(), 20_000, 'the chat webview rendering');
    assert.deepEqual(report, { composer: true });
  });

  test('the commands are registered', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['peon.focusChat', 'peon.newChat', 'peon.stop', 'peon.chatView.focus']) {
      assert.ok(commands.includes(id), `${id} is registered`);
    }
  });

  test('New Chat and Stop run without error', async () => {
    await vscode.commands.executeCommand('peon.newChat');
    await vscode.commands.executeCommand('peon.stop');
  });
});
