import * as vscode from 'vscode';
import type { RenderReport } from './chatViewProvider';
import { editorActions, FixWithPeon } from './editorContext';
import { lazyBundle } from './lazyBundle';
import type * as Panel from './panel';

export const CHAT_VIEW_ID = 'peon.chatView';

/** What `activate` returns; the in-host integration suite reads it. */
export interface PeonApi {
  readonly chat: { whenRendered(): Promise<RenderReport> };
}

const panelBundle = lazyBundle<typeof Panel>('panel');
let panel: ReturnType<typeof Panel.openPanel> | undefined;

// activate() stays synchronous and small: no network, no secrets, no workspace scan; the
// panel's code loads when the view first resolves or a command first runs (PERF.md B12).
export function activate(context: vscode.ExtensionContext): PeonApi {
  const log = vscode.window.createOutputChannel('Peon', { log: true });
  const open = (): ReturnType<typeof Panel.openPanel> => (panel ??= panelBundle().openPanel(context, log));
  const editor = editorActions(() => open().chat);
  context.subscriptions.push(
    log,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, { resolveWebviewView: (view) => open().chat.resolveWebviewView(view) }),
    // Both put the cursor in the composer, not only focus the view.
    vscode.commands.registerCommand('peon.focusChat', () => open().chat.focusComposer()),
    vscode.commands.registerCommand('peon.newChat', () => {
      open().chat.newChat();
      return open().chat.focusComposer();
    }),
    vscode.commands.registerCommand('peon.stop', () => open().chat.stop()),
    vscode.commands.registerCommand('peon.setApiKey', () => open().setApiKey()),
    vscode.commands.registerCommand('peon.selectModel', () => open().selectModel()),
    vscode.commands.registerCommand('peon.showHistory', () => open().showHistory()),
    vscode.commands.registerCommand('peon.restoreFiles', () => open().restoreFiles()),
    // The title bar of a proposal's diff editor (editor/title): VS Code passes the proposal's URI.
    vscode.commands.registerCommand('peon.acceptProposal', (uri?: unknown) => open().answerProposal(uri, true)),
    vscode.commands.registerCommand('peon.rejectProposal', (uri?: unknown) => open().answerProposal(uri, false)),
    vscode.commands.registerCommand('peon.addSelectionToChat', () => editor.addSelection()),
    vscode.commands.registerCommand('peon.explainSelection', () => editor.explainSelection()),
    vscode.commands.registerCommand('peon.fixProblems', (uri?: unknown, startLine?: unknown, endLine?: unknown) => editor.fixProblems(uri, startLine, endLine)),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FixWithPeon(), FixWithPeon.metadata),
  );
  return { chat: { whenRendered: () => open().chat.whenRendered() } };
}

/** The window's MCP servers (each in a session of its own) are stopped here and waited for; the runtime's exit hook only kills what is left. */
export function deactivate(): Promise<void> | undefined {
  return panel?.shutdown();
}
