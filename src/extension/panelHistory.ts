// The panel's history (walkthrough #14): the history view's list and search, the empty
// state's recent chats, rename, delete (asked first), export as Markdown, and which chat
// the panel shows, kept beside the sessions so a window reload reopens it. Every id
// the webview names is looked up in the session store; nothing it sends is a path.
import type { SessionStore, SessionSummary } from '../core/sessions/sessionStore';
import { sessionMarkdown } from '../core/sessions/sessionMarkdown';
import type { Handlers, HostMessage, SessionInfo, WebviewMessage } from '../shared/messages';
import { Transcript } from './transcript';

/** What only VS Code can do for the history: ask, and pick a file. */
export interface HistoryFace {
  /** A modal asking to delete the chat titled so; true: delete. */
  confirmDelete(title: string): Promise<boolean>;
  /** Asks where to save `markdown` (a save dialog, `name` suggested) and writes it; the file written, or undefined when the person cancelled. */
  saveMarkdown(name: string, markdown: string): Promise<string | undefined>;
  warn(text: string): void;
}

/** What the panel does when a chat is resumed or deleted (ChatViewProvider). */
export interface HistoryChat {
  /** The session the panel shows (undefined: a new chat with nothing sent yet). */
  current(): string | undefined;
  resume(id: string): void;
  /** Deletes a session; the chat shown, when it is that one, becomes a new chat. */
  deleteSession(id: string): void;
}

/** The most the history view lists at once (search to reach older ones). */
const LISTED = 300;
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class PanelHistory {
  /** The query the view last asked for: its list is posted again after a rename or a delete. */
  private query = '';
  /** Show History waits for the page; the first page of the window reopens the chat shown before. */
  private viewAsked = false;
  private reopened = false;

  constructor(
    private readonly store: SessionStore,
    private readonly post: (message: HostMessage) => void,
    private readonly chat: HistoryChat,
    private readonly face: HistoryFace,
  ) {}

  /** The webview's messages this answers. */
  readonly handlers: Pick<Handlers<WebviewMessage>, 'listHistory' | 'resumeSession' | 'renameSession' | 'deleteSession' | 'exportSession'> = {
    listHistory: (message) => this.list(message.query),
    resumeSession: (message) => this.resume(message.id),
    renameSession: (message) => this.rename(message.id, message.title),
    deleteSession: (message) => void this.delete(message.id),
    exportSession: (message) => void this.export(message.id),
  };

  /** The chat shown now (undefined: none yet), remembered for the next window of this workspace. */
  shown(id: string | undefined): void {
    try {
      this.store.setShown(id);
    } catch (error) {
      this.face.warn(`The chat shown was not remembered for the next window: ${message(error)}`);
    }
  }

  /** A chat was chosen in this window (New Chat, one resumed) before its first page asked: nothing is reopened over it. */
  chosen(): void {
    this.reopened = true;
  }

  /** Once a window (its first page): the chat the panel showed before the window reloaded, if it is still saved. */
  toReopen(): string | undefined {
    if (this.reopened) return undefined;
    this.reopened = true;
    return this.store.shown();
  }

  /** Show History: the panel's history view opens now, or when its page reports ready. */
  openView(pageReady: boolean): void {
    this.viewAsked = !pageReady;
    if (pageReady) this.post({ type: 'openHistory' });
  }

  pageReady(): void {
    if (this.viewAsked) this.openView(true);
  }

  /** The view's list for `query`: titles and messages searched (SessionIndex.search). */
  list(query: string): void {
    this.query = query;
    try {
      const found = this.store.search(query, LISTED);
      const current = this.chat.current();
      this.post({ type: 'history', query, sessions: found.hits.map(infoOf), total: found.total, titlesOnly: found.titlesOnly, ...(current ? { current } : {}) });
    } catch (error) {
      this.face.warn(`The saved chats could not be listed: ${message(error)}`);
      this.post({ type: 'history', query, sessions: [], total: 0, titlesOnly: 0 });
    }
  }

  /** Up to five recent chats for the empty state, the one shown left out. */
  recent(): void {
    let sessions: SessionInfo[] = [];
    try {
      const current = this.chat.current();
      sessions = this.store.list().filter((s) => s.id !== current && s.messages > 0).slice(0, 5).map(infoOf);
    } catch (error) {
      this.face.warn(`The recent chats could not be listed: ${message(error)}`);
    }
    this.post({ type: 'recentChats', sessions });
  }

  resume(id: string): void {
    if (!this.store.exists(id)) return this.refresh();
    if (id !== this.chat.current()) this.chat.resume(id);
  }

  rename(id: string, title: string): void {
    try {
      if (this.store.exists(id)) this.store.rename(id, title);
    } catch (error) {
      this.face.warn(`The chat was not renamed: ${message(error)}`);
    }
    this.refresh();
  }

  /** Deletes a chat after the person confirms it in a modal. */
  async delete(id: string): Promise<void> {
    const session = this.store.list().find((s) => s.id === id);
    if (!session) return this.refresh();
    if (!(await this.face.confirmDelete(session.title))) return;
    const shown = id === this.chat.current();
    this.chat.deleteSession(id);
    this.refresh();
    // The chat shown was deleted: the panel showed a new one, and goes back to the list.
    if (shown) this.openView(true);
  }

  /** Writes a chat as Markdown where the person picks. */
  async export(id: string): Promise<void> {
    const session = this.store.list().find((s) => s.id === id);
    if (!session) return this.refresh();
    try {
      const loaded = this.store.load(id);
      const transcript = new Transcript(() => {});
      transcript.restore(loaded.view);
      const markdown = sessionMarkdown({ title: session.title, createdAt: session.createdAt, ...(session.cost !== undefined ? { cost: session.cost } : {}) }, transcript.entries);
      await this.face.saveMarkdown(fileNameOf(session.title), markdown);
    } catch (error) {
      this.face.warn(`The chat was not exported: ${message(error)}`);
    }
  }

  /** The view's list (for its last query) and the recent chats, as they are now. */
  refresh(): void {
    this.list(this.query);
    this.recent();
  }
}

function infoOf(s: SessionSummary & { snippet?: string }): SessionInfo {
  return {
    id: s.id,
    title: s.title,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    messages: s.messages,
    ...(s.cost !== undefined ? { cost: s.cost } : {}),
    ...(s.snippet !== undefined ? { snippet: s.snippet.slice(0, 400) } : {}),
  };
}

/** A file name for a chat's export: its title, without what a file name cannot hold. */
export function fileNameOf(title: string): string {
  const base = title
    .replace(/[\\/:*?"<>|…\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();
  return `${base || 'Peon chat'}.md`;
}
