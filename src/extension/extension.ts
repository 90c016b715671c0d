import * as vscode from 'vscode';
import { CHAT_VIEW_ID, ChatViewProvider, type RenderReport } from './chatViewProvider';
import { showHistory } from './historyPicker';
import { selectModel, setApiKey } from './modelFromSettings';

/** What `activate` returns; the in-host integration suite reads it. */
export interface PeonApi {
  readonly chat: { whenRendered(): Promise<RenderReport> };
}

// activate() stays synchronous: no network, no secrets, no workspace scan (PERF.md B12).
export function activate(context: vscode.ExtensionContext): PeonApi {
  const log = vscode.window.createOutputChannel('Peon', { log: true });
  const chat = new ChatViewProvider(context.extensionUri, log, context.storageUri ?? context.globalStorageUri, context.secrets);
  context.subscriptions.push(
    log,
    chat,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chat),
    vscode.commands.registerCommand('peon.focusChat', () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`)),
    vscode.commands.registerCommand('peon.newChat', () => chat.newChat()),
    vscode.commands.registerCommand('peon.stop', () => chat.stop()),
    vscode.commands.registerCommand('peon.setApiKey', () => setApiKey(context.secrets)),
    vscode.commands.registerCommand('peon.selectModel', () => selectModel(context.secrets)),
    vscode.commands.registerCommand('peon.showHistory', () => showHistory(chat)),
  );
  return { chat: { whenRendered: () => chat.whenRendered() } };
}

export function deactivate(): void {}
