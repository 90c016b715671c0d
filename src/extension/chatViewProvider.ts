import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { deferred } from '../core/deferred';
import { modelStatusOf } from '../core/modelStatus';
import { dispatch, parseWebviewMessage, type HostMessage, type ModelStatus, type WebviewMessage } from '../shared/messages';
import { ApprovalCards } from './approvals';
import { windowOf } from '../core/model/modelInfo';
import type { HistoryItem } from '../core/model/modelClient';
import { SessionStore, type SessionMeta } from '../core/sessions/sessionStore';
import { ChatAgent } from './chatAgent';
import { applySetup, modelFromSettings, setupChoices } from './modelFromSettings';
import { readSettings } from './settings';
import { Transcript } from './transcript';
import { renderWebviewHtml } from './webviewHtml';

export const CHAT_VIEW_ID = 'peon.chatView';

/** What the webview reported when it mounted (the in-host tests await this). */
export interface RenderReport {
  readonly composer: boolean;
}

/**
 * The side-panel chat. The host owns the conversation; the webview renders it and
 * may be destroyed and recreated whenever the view is hidden, so on every `ready`
 * it receives the conversation once, then only deltas.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly transcript = new Transcript((message) => {
    // What changes the conversation is recorded as it happens (a crash loses at most this line).
    if (this.session && (message.type === 'append' || message.type === 'delta' || message.type === 'tool' || message.type === 'usage')) {
      this.sessions.append(this.session, { type: 'view', message });
    }
    this.post(message);
  });
  private readonly approvals: ApprovalCards;
  private agent: ChatAgent;
  private session: string | undefined;
  private readonly sessions: SessionStore;
  private model: ModelStatus;
  private readonly disposables: vscode.Disposable[] = [];
  /** Settles when the current webview reports `ready`; replaced once settled and the webview goes away. */
  private rendered = deferred<RenderReport>();
  private renderedSettled = false;
  private lastWarnings = '';

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly storageUri: vscode.Uri,
    private readonly secrets: vscode.SecretStorage,
  ) {
    this.sessions = new SessionStore(vscode.Uri.joinPath(storageUri, 'sessions').fsPath);
    this.approvals = new ApprovalCards((message) => this.post(message), log, storageUri, (callId, waiting) => this.transcript.awaiting(callId, waiting));
    this.agent = this.newAgent();
    this.model = this.readModel();
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration('peon')) return;
        this.model = this.readModel();
        this.post({ type: 'model', model: this.model });
      }),
    );
  }

  /** Resolves when the webview has mounted and reported what it rendered. */
  whenRendered(): Promise<RenderReport> {
    return this.rendered.promise;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [root] };
    view.webview.html = renderWebviewHtml({
      cspSource: view.webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(root, 'main.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(root, 'main.css')).toString(),
    });
    const subscription = view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
    view.onDidDispose(() => {
      subscription.dispose();
      if (this.view !== view) return;
      this.view = undefined;
      if (this.renderedSettled) {
        this.rendered = deferred<RenderReport>();
        this.renderedSettled = false;
      }
    });
  }

  newChat(): void {
    this.agent.stop();
    this.agent = this.newAgent();
    this.session = undefined;
    this.transcript.clear();
    this.postInit();
  }

  /** What is allowed for this chat's session (the panel lists it; in-host tests read it). */
  get grants(): ChatAgent['grants'] {
    return this.agent.grants;
  }

  /** Saved conversations, newest first. */
  listSessions(): SessionMeta[] {
    return this.sessions.list();
  }

  /** Continues a saved conversation: its transcript in the panel, its history for the model. */
  resume(id: string): void {
    const loaded = this.sessions.load(id);
    this.agent.stop();
    this.agent = this.newAgent(loaded.history);
    this.session = id;
    this.transcript.restore(loaded.view);
    this.postInit();
  }

  deleteSession(id: string): void {
    if (this.session === id) this.newChat();
    this.sessions.delete(id);
  }

  stop(): void {
    this.agent.stop();
  }

  private newAgent(history: HistoryItem[] = []): ChatAgent {
    return new ChatAgent(
      {
        extensionUri: this.extensionUri,
        storageUri: this.storageUri,
        approve: this.approvals.broker.approve,
        onGrants: (grants) => this.post({ type: 'grants', grants: [...grants] }),
        onEvent: (event) => this.transcript.apply(event),
        onHistory: (item) => {
          if (this.session) this.sessions.append(this.session, { type: 'history', item });
        },
        onProgress: (text) => this.transcript.progress(text),
        onReset: (history) => {
          if (this.session) this.sessions.append(this.session, { type: 'reset', history: [...history] });
        },
      },
      history,
    );
  }

  /** A message from the composer: one agent turn, streamed into the transcript. */
  private async send(text: string): Promise<void> {
    if (this.agent.busy) {
      this.transcript.append({ kind: 'notice', level: 'info', text: 'Peon is still working on the last message; press Stop to end it first.' });
      return;
    }
    this.session ??= this.sessions.create(text).id;
    this.transcript.append({ kind: 'user', text });
    const settings = readSettings();
    const client = await modelFromSettings(settings.values, this.secrets);
    if ('problem' in client) {
      this.transcript.append({ kind: 'notice', level: 'warning', text: `${client.problem} Nothing was sent anywhere.` });
      return;
    }
    const agent = this.agent;
    this.transcript.contextWindow = windowOf(client);
    this.post({ type: 'busy', busy: true });
    try {
      await agent.run(text, client, settings.values, settings.layers);
    } catch (error) {
      this.transcript.append({ kind: 'notice', level: 'error', text: error instanceof Error ? error.message : String(error) });
    } finally {
      if (agent === this.agent) this.post({ type: 'busy', busy: false });
    }
  }

  dispose(): void {
    this.approvals.dispose();
    for (const d of this.disposables) d.dispose();
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`Ignored a message from the chat view: ${parsed.error}`);
      return;
    }
    dispatch<WebviewMessage>(
      {
        // Also after the view was hidden and shown again: its page reloads and asks anew.
        ready: (message) => {
          this.postInit();
          if (this.agent.busy) this.post({ type: 'busy', busy: true });
          // First run: offer a local model server if one answers on this machine.
          if (this.model.state === 'unconfigured') void setupChoices().then((choices) => this.post({ type: 'localModels', ...choices }));
          this.rendered.resolve({ composer: message.composer });
          this.renderedSettled = true;
        },
        send: (message) => void this.send(message.text),
        stop: () => this.stop(),
        setup: (message) => void applySetup(message, this.secrets),
        answer: (message) => void this.approvals.answer(message.id, message.answer, message.message),
        openDiff: (message) => void this.approvals.openDiff(message.id),
        revokeGrant: (message) => this.agent.grants.revoke(message.tool, message.pattern),
      },
      parsed.message,
    );
  }

  /** The whole conversation and its meter, once: on `ready`, a new chat, or a resumed one. */
  private postInit(): void {
    const { entries, meter } = this.transcript;
    this.post({ type: 'init', entries, model: this.model, ...(meter ? { meter } : {}) });
    this.post({ type: 'grants', grants: this.agent.grants.list() });
    for (const card of this.approvals.pending()) this.post({ type: 'approval', card });
  }

  private post(message: HostMessage): void {
    void this.view?.webview.postMessage(message);
  }

  private readModel(): ModelStatus {
    const settings = readSettings();
    const warnings = settings.warnings.join('\n');
    if (warnings !== this.lastWarnings) for (const warning of settings.warnings) this.log.warn(warning);
    this.lastWarnings = warnings;
    return modelStatusOf(settings.values);
  }
}
