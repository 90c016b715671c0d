// VS Code's side of the window's MCP servers (panelMcp.ts): the open folders and their
// trust, what the person approved (the extension's global state: user scope, not synced),
// `${input:id}` values and OAuth tokens in SecretStorage, an input box that asks for a
// missing input naming its server, a server's elicitation put to the person in the
// question modal labelled with its name, its OAuth page opened in the browser, and the
// servers turned off for this workspace (its workspace state).
import os from 'node:os';
import * as vscode from 'vscode';
import type { McpHooks, McpInput, McpSecretStore, McpServers } from '../core/conversation/index';
import type { SettingValues } from '../core/settings';
import type { QuestionAsker } from '../core/tools/contract';
import type { NameList, PanelMcpHooks } from './panelMcp';
import { runtime } from './runtime';

/** Where the approvals and tool fingerprints are kept (global state is never synced unless a key is named for it). */
const TRUST_KEY = 'peon.mcp.trust';
const SECRET_PREFIX = 'peon.mcp.';

export type McpContext = Pick<vscode.ExtensionContext, 'globalState' | 'workspaceState' | 'secrets' | 'extension'>;

/** The window's servers over the open folders, or undefined with none open. */
export interface WindowMcpHooks extends PanelMcpHooks, Pick<McpHooks, 'approve'> {
  /** The question modal (askuserquestion's): a server's elicitation is put there. */
  readonly ask: QuestionAsker;
  warn(text: string): void;
}

export function openWindowMcp(context: McpContext, settings: SettingValues, { ask, warn, ...hooks }: WindowMcpHooks): McpServers | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return undefined;
  const { McpServers, McpTrust, askElicitation, mcpAuthorizer } = runtime();
  const secrets = secretStore(context.secrets);
  return new McpServers({
    settings,
    folders: folders.map((f) => f.uri.fsPath),
    // Restricted Mode: no project server starts (the set is made anew when trust is granted).
    trusted: vscode.workspace.isTrusted,
    trust: new McpTrust(context.globalState.get(TRUST_KEY), (data) => void context.globalState.update(TRUST_KEY, data)),
    hostEnv: process.env,
    home: os.homedir(),
    version: String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0'),
    hooks: {
      agent: 'main',
      secrets,
      askInput,
      // Labelled `MCP server "name"` in the modal; Stop or closing it answers `cancel`.
      elicit: async (server, params, signal) => {
        const answer = await askElicitation(server, params, ask, signal);
        if (answer.problem) warn(`The MCP server "${server}" was answered ${answer.result.action}: ${answer.problem}`);
        return answer.result;
      },
      authorizer: (server, transport) => mcpAuthorizer({ serverUrl: transport.url, store: secrets, openUrl: (url) => openAuthorization(server.name, url), ...transport.oauth }),
      ...hooks,
    },
  });
}

/** An OAuth page: opened in the person's browser, once they agree (a server chose the URL). */
async function openAuthorization(server: string, url: string): Promise<void> {
  const open = 'Open in Browser';
  const answer = await vscode.window.showInformationMessage(`The MCP server "${server}" asks you to sign in.`, { modal: true, detail: `Peon will open ${url}` }, open);
  if (answer === open) await vscode.env.openExternal(vscode.Uri.parse(url, true));
}

function secretStore(secrets: vscode.SecretStorage): McpSecretStore {
  return {
    get: async (key) => secrets.get(SECRET_PREFIX + key),
    set: async (key, value) => secrets.store(SECRET_PREFIX + key, value),
    delete: async (key) => secrets.delete(SECRET_PREFIX + key),
  };
}

/** Asks for an `${input:id}` value in VS Code's input box, naming the server; Escape or Stop: none. */
async function askInput(server: string, input: McpInput, signal: AbortSignal): Promise<string | undefined> {
  const cancel = new vscode.CancellationTokenSource();
  const abort = (): void => cancel.cancel();
  signal.addEventListener('abort', abort, { once: true });
  try {
    return await vscode.window.showInputBox(
      {
        title: `The MCP server "${server}" needs ${input.id}`,
        prompt: input.description ?? `The value of \${input:${input.id}} in its configuration. Peon keeps it in VS Code's secret storage.`,
        password: input.password,
        ignoreFocusOut: true,
      },
      cancel.token,
    );
  } finally {
    signal.removeEventListener('abort', abort);
    cancel.dispose();
  }
}

/** A list of names in the workspace's state (servers or tools turned off here). */
export function workspaceNames(state: vscode.Memento, key: string): NameList {
  return {
    get: () => {
      const value = state.get<unknown>(key);
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    },
    set: (names) => state.update(key, [...new Set(names)]),
  };
}

/** Watches the workspace's MCP files: a change makes the set anew. */
export function watchMcpFiles(onChange: () => void): vscode.Disposable {
  const watchers = ['.vscode/mcp.json', '.mcp.json'].map((file) => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const watcher = vscode.workspace.createFileSystemWatcher(folder ? new vscode.RelativePattern(folder, file) : `**/${file}`);
    watcher.onDidChange(onChange);
    watcher.onDidCreate(onChange);
    watcher.onDidDelete(onChange);
    return watcher;
  });
  return vscode.Disposable.from(...watchers);
}
