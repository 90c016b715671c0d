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

  test('the commands are registered, and the view and its container are contributed', async () => {
    const commands = await vscode.commands.getCommands(true);
    const contributed = (peonExtension().packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands;
    for (const { command } of contributed) assert.ok(commands.includes(command), `${command} is registered`);
    // VS Code creates these for a contributed view and its activity-bar container.
    assert.ok(commands.includes('peon.chatView.focus'), 'the chat view is contributed');
    assert.ok(commands.includes('workbench.view.extension.peon'), 'the Peon container is contributed');
  });
});
