// The panel's bundle (dist/panel.js): the chat view, its commands' work, the webview
// protocol. Required when the view first resolves or a command first runs.
import * as vscode from 'vscode';
import { ChatViewProvider } from './chatViewProvider';
import { registerCheckpointDocuments } from './checkpointDocuments';
import { pickRestorePoint } from './restorePicker';
import { selectModel, setApiKey } from './modelFromSettings';

export function openPanel(context: vscode.ExtensionContext, log: vscode.LogOutputChannel) {
  const chat = new ChatViewProvider(context.extensionUri, log, context.storageUri ?? context.globalStorageUri, context.secrets, context, context.globalStorageUri);
  context.subscriptions.push(chat, registerCheckpointDocuments(() => chat.parts.checkpoints));
  return {
    chat,
    showHistory: () => chat.showHistory(),
    setApiKey: () => setApiKey(context.secrets),
    selectModel: () => selectModel(context.secrets),
    restoreFiles: () => pickRestorePoint({ checkpoints: chat.parts.checkpoints, entries: chat.entries }),
    /** Accept or Reject in a proposal's diff editor. */
    answerProposal: (target: unknown, accept: boolean) => chat.parts.approvals.answerProposal(target, accept),
    /** Deactivation: the window's MCP servers stopped, and waited for. */
    shutdown: () => chat.shutdown(),
  };
}
