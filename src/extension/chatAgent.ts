// One conversation's agent: its history, the tool session over the open workspace, and
// the turn in flight (Stop aborts it). It reports what happens as transcript updates;
// the chat view turns those into messages for the webview.
import fs from 'node:fs';
import * as vscode from 'vscode';
import { runAgentTurn, type LoopEvent } from '../core/agent/loop';
import { buildSystemPrompt } from '../core/agent/systemPrompt';
import type { HistoryItem, ModelClient } from '../core/model/modelClient';
import { priceOf, windowOf, type Price } from '../core/model/modelInfo';
import { SessionGrants, type Grant } from '../core/permissions/grants';
import { diagnosticsFor } from './diagnostics';
import { modelJudge } from '../core/permissions/judgeModel';
import { permissionConfig } from '../core/permissions/rules';
import { locateRipgrep } from '../core/search/ripgrep';
import type { SettingValues } from '../core/settings';
import { BUILTIN_TOOLS, builtinRegistry } from '../core/tools/builtins';
import { ToolRegistry } from '../core/tools/registry';
import { DEFAULT_LIMITS } from '../core/tools/contract';
import { ToolSession, type Approver } from '../core/tools/session';
import { FileSnapshots } from '../core/workspace/snapshots';
import { Trash } from '../core/workspace/trash';
import { Workspace } from '../core/workspace/workspace';

function readOnlyRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of BUILTIN_TOOLS) if (tool.risk === 'read_only') registry.register(tool);
  return registry;
}

export interface AgentHost {
  readonly extensionUri: vscode.Uri;
  readonly storageUri: vscode.Uri;
  readonly approve: Approver;
  readonly onEvent: (event: LoopEvent) => void;
  readonly onHistory: (item: HistoryItem) => void;
  /** The history was replaced whole (compaction). */
  readonly onReset: (history: HistoryItem[]) => void;
  /** Live output of the running tool call (a command's output as it arrives). */
  readonly onProgress: (text: string) => void;
  /** What is allowed for this session changed. */
  readonly onGrants: (grants: readonly Grant[]) => void;
}

export class ChatAgent {
  private contextTokens = 0;
  private readonly snapshots = new FileSnapshots();
  private running: AbortController | undefined;
  /** "Allow for this session" answers: they last as long as this conversation. */
  readonly grants = new SessionGrants();

  /** `history`: a resumed session's. */
  constructor(
    private readonly host: AgentHost,
    private readonly history: HistoryItem[] = [],
  ) {
    this.grants.onChange(host.onGrants);
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  stop(): void {
    this.running?.abort();
  }

  async run(prompt: string, client: ModelClient, settings: SettingValues, layers: { user: Record<string, unknown>; workspace: Record<string, unknown> }): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) throw new Error('Open a folder first: Peon works on a workspace.');
    const controller = new AbortController();
    this.running = controller;
    try {
      const workspace = new Workspace(folders.map((f) => ({ name: f.name, path: f.uri.fsPath })));
      // Restricted mode (an untrusted workspace): only the read-only tools exist.
      const tools = vscode.workspace.isTrusted ? builtinRegistry() : readOnlyRegistry();
      const specs = tools.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
      const session = new ToolSession(
        tools,
        {
          signal: controller.signal,
          workspace,
          timeoutMs: ((settings['peon.bash.maxTimeoutSeconds'] ?? 600) + 60) * 1000,
          limits: DEFAULT_LIMITS,
          snapshots: this.snapshots,
          trash: new Trash(vscode.Uri.joinPath(this.host.storageUri, 'trash').fsPath),
          agent: 'main',
          ripgrep: locateRipgrep({ bundled: [vscode.Uri.joinPath(this.host.extensionUri, 'dist', 'bin', 'rg').fsPath], appRoot: vscode.env.appRoot }),
          settings,
          onProgress: this.host.onProgress,
          unsaved: hasUnsavedChanges,
          diagnostics: diagnosticsFor,
        },
        this.host.approve,
        permissionConfig(layers),
        this.grants,
        settings['peon.permission.judge'] ? modelJudge(client, controller.signal) : undefined,
      );
      const policy = { contextWindow: windowOf(client), threshold: settings['peon.compaction.threshold'] ?? 0.8, keepTurns: 2 };
      const result = await runAgentTurn(this.history, prompt, {
        client,
        contextTokens: this.contextTokens,
        compaction: { ...policy, memoryRoot: workspace.root.root, onCompacted: (history) => this.host.onReset(history) },
        session,
        system: buildSystemPrompt({ workspace, tools: specs, date: new Date() }),
        tools: specs,
        signal: controller.signal,
        onEvent: this.host.onEvent,
        onHistory: this.host.onHistory,
        ...withPrice(settings, client.model),
      });
      this.contextTokens = result.contextTokens;
    } finally {
      this.running = undefined;
    }
  }
}

/** The model's price, when known (DESIGN.md §6: cost per turn and per session). */
function withPrice(settings: SettingValues, model: string): { price?: Price } {
  const provider = settings['peon.model.provider'];
  const price = provider && priceOf(provider, model, settings['peon.model.baseUrl'], settings['peon.model.price']);
  return price ? { price } : {};
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
