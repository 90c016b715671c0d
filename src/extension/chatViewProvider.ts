import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { deferred } from '../core/deferred';
import { modelStatusOf, noModelNotice } from '../core/modelStatus';
import {
  dispatch,
  parseWebviewMessage,
  type HostMessage,
  type ModelStatus,
  type TranscriptEntry,
  type WebviewMessage,
} from '../shared/messages';
import { readSettings } from './settings';
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
  private entries: TranscriptEntry[] = [];
  private nextId = 1;
  private model: ModelStatus;
  private readonly disposables: vscode.Disposable[] = [];
  /** Settles when the current webview reports `ready`; replaced once settled and the webview goes away. */
  private rendered = deferred<RenderReport>();
  private renderedSettled = false;
  private lastWarnings = '';

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
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
    this.entries = [];
    this.post({ type: 'init', entries: this.entries, model: this.model });
  }

  /** Nothing runs without an agent loop, so there is nothing to cancel yet. */
  stop(): void {}

  dispose(): void {
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
          this.post({ type: 'init', entries: this.entries, model: this.model });
          this.rendered.resolve({ composer: message.composer });
          this.renderedSettled = true;
        },
        send: (message) => {
          this.append({ kind: 'user', id: this.newId(), text: message.text });
          this.append({ kind: 'notice', id: this.newId(), level: 'warning', text: noModelNotice(this.model) });
        },
      },
      parsed.message,
    );
  }

  private append(entry: TranscriptEntry): void {
    this.entries.push(entry);
    this.post({ type: 'append', entry });
  }

  private post(message: HostMessage): void {
    void this.view?.webview.postMessage(message);
  }

  private newId(): string {
    return `e${this.nextId++}`;
  }

  private readModel(): ModelStatus {
    const settings = readSettings();
    const warnings = settings.warnings.join('\n');
    if (warnings !== this.lastWarnings) for (const warning of settings.warnings) this.log.warn(warning);
    this.lastWarnings = warnings;
    return modelStatusOf(settings.values);
  }
}
