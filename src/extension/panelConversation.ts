// The panel's hooks for a conversation: VS Code's side of what the runtime needs — the
// open folders and their trust, the editor's unsaved buffers and diagnostics, the
// extension's storage and its bundled ripgrep. The conversation itself is assembled by
// the runtime (src/core/conversation), as for every face.
import fs from 'node:fs';
import * as vscode from 'vscode';
import type { Conversation, ConversationHooks, McpServers, SavedState } from '../core/conversation/index';
import type { HistoryItem } from '../core/model/modelClient';
import type { LoadedAgent } from '../core/sessions/agentStore';
import type { SandboxView } from '../core/sandbox/describe';
import type { SettingLayers, SettingValues } from '../core/settings';
import { proxyFromEnv, type ProxySettings } from '../core/web/proxy';
import { diagnosticsFor } from './diagnostics';
import { runtime } from './runtime';

export interface PanelSetup {
  readonly extensionUri: vscode.Uri;
  readonly storageUri: vscode.Uri;
  /** The extension's storage of every workspace (tokens, sessions): hidden from sandboxed commands. */
  readonly globalStorageUri?: vscode.Uri;
  readonly hooks: Omit<ConversationHooks, 'unsaved' | 'diagnostics'>;
  readonly settings: { readonly values: SettingValues; readonly layers: SettingLayers };
  readonly history?: readonly HistoryItem[];
  readonly state?: SavedState;
  /** A resumed chat's subagents. */
  readonly agents?: readonly LoadedAgent[];
  /** The window's MCP servers (shared by its chats). */
  readonly mcp?: McpServers | undefined;
}

/** The panel's conversation over the open folders, or undefined when none is open. */
export function openPanelConversation(setup: PanelSetup): Conversation | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return undefined;
  return runtime().openConversation({
    agent: 'main',
    folders: folders.map((f) => ({ name: f.name, path: f.uri.fsPath })),
    settings: setup.settings.values,
    layers: setup.settings.layers,
    // Restricted mode (an untrusted workspace): only the read-only tools exist.
    trusted: vscode.workspace.isTrusted,
    trashDir: trashDirOf(setup.storageUri),
    // Each step's changes, kept per workspace in the extension's storage (DESIGN.md §10).
    checkpoints: { dir: vscode.Uri.joinPath(setup.storageUri, 'checkpoints').fsPath },
    // Sessions, trash, approvals in review: out of sight of sandboxed commands.
    privateDirs: [setup.storageUri.fsPath, ...(setup.globalStorageUri ? [setup.globalStorageUri.fsPath] : [])],
    ripgrep: { bundled: [vscode.Uri.joinPath(setup.extensionUri, 'dist', 'bin', 'rg').fsPath], appRoot: vscode.env.appRoot },
    hooks: {
      ...setup.hooks,
      unsaved: hasUnsavedChanges,
      diagnostics: diagnosticsFor,
      web: {
        get proxy() {
          return webProxy();
        },
        markdownWorker: vscode.Uri.joinPath(setup.extensionUri, 'dist', 'markdownWorker.js').fsPath,
      },
    },
    ...(setup.history ? { history: setup.history } : {}),
    ...(setup.state ? { state: setup.state } : {}),
    ...(setup.agents ? { agents: setup.agents } : {}),
    ...(setup.mcp ? { mcp: setup.mcp } : {}),
  });
}

/** What the panel says once a window when commands cannot be sandboxed here; undefined when they can. */
export function unsandboxedNotice(view: SandboxView | undefined): string | undefined {
  if (!view || view.state !== 'unsandboxed') return undefined;
  const refused = view.text.endsWith('nothing was run.');
  const why = view.text.replace(/^NOT sandboxed — /, '').replace(/(: full access to your files and network|, and peon\.sandbox\.required is on: nothing was run\.)$/, '');
  return refused
    ? `Commands cannot be sandboxed here (${why}), and peon.sandbox.required is on: Peon will not run them.`
    : `Commands cannot be sandboxed here (${why}): each asks on a red card, and runs with full access to your files and network.`;
}

/** Where the workspace's deleted files are kept (the panel's trash lists this conversation's). */
export const trashDirOf = (storageUri: vscode.Uri): string => vscode.Uri.joinPath(storageUri, 'trash').fsPath;

/**
 * The proxy webfetch and websearch use: VS Code's `http.proxy` and `http.noProxy` from
 * the user's settings (a workspace could otherwise route requests through a server of
 * its choosing), else the environment VS Code was started with. Read on every request,
 * so a changed setting applies at once.
 */
export function webProxy(): ProxySettings | undefined {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.inspect<string>('proxy')?.globalValue?.trim();
  const noProxy = http.inspect<string[]>('noProxy')?.globalValue?.filter((s) => typeof s === 'string') ?? [];
  const env = proxyFromEnv(process.env);
  const bypass = [...noProxy, ...(env?.noProxy ?? [])];
  const chosen = proxy ? { https: proxy, http: proxy } : env;
  return chosen ? { ...chosen, ...(bypass.length > 0 ? { noProxy: bypass } : {}) } : undefined;
}

/** Whether a file is open in an editor with unsaved changes (compared by real path). */
function hasUnsavedChanges(canonical: string): boolean {
  return vscode.workspace.textDocuments.some((d) => {
    if (!d.isDirty || d.uri.scheme !== 'file') return false;
    try {
      return fs.realpathSync.native(d.uri.fsPath) === canonical;
    } catch {
      return d.uri.fsPath === canonical;
    }
  });
}
