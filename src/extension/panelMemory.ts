// The workspace's memory in the panel (issue 14, DESIGN.md §4 "mem-search, mem-read"):
// "Remember this" on a message writes an observation of it; the memory view lists the
// entries (title, id, kind, stale or not, when written), opens one in the editor and
// deletes one Peon wrote after the person confirms. Curated files (AGENTS.md,
// .peon/memory/*.md) are the person's: never deleted from here. Every id the webview
// names is looked up in the store; nothing it sends is used as a path.
import { cutText as cut } from '../shared/format';
import path from 'node:path';
import type { MemoryStore } from '../core/conversation/index';
import type { MemoryEntry } from '../core/memory/memoryEntry';
import { visibleText } from '../shared/hiddenText';
import type { HostMessage, MemoryInfo } from '../shared/messages';

/** What the panel does for memory that only VS Code can: show a file, ask before deleting. */
export interface MemoryFace {
  /** The workspace's store (the runtime's one for its root), or undefined with no folder open. */
  store(): MemoryStore | undefined;
  /** peon.memory.enabled. */
  enabled(): boolean;
  /** A line in the chat. */
  notice(level: 'info' | 'warning' | 'error', text: string): void;
  /** Opens a file (absolute path) in the editor. */
  show(file: string): Promise<void>;
  /** Asks the person to confirm deleting an entry (a modal); true: delete. */
  confirmDelete(entry: MemoryEntry): Promise<boolean>;
  /** Says an entry was deleted and offers to undo it; true: put it back. */
  offerUndo(entry: MemoryEntry): Promise<boolean>;
  /** Workspace Trust: a restricted workspace's memory is listed, but nothing is saved into it. */
  trusted(): boolean;
  warn(text: string): void;
}

const MAX_ENTRIES = 20_000;
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class PanelMemory {
  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly face: MemoryFace,
  ) {}

  /** The entries as they are on disk now (the memory view). */
  list(): void {
    const store = this.face.store();
    let entries: MemoryInfo[] = [];
    try {
      entries = store ? store.list(this.face.trusted()).slice(0, MAX_ENTRIES).map((e) => infoOf(e, store)) : [];
    } catch (error) {
      this.face.warn(`The memory entries could not be listed: ${message(error)}`);
    }
    this.post({ type: 'memory', enabled: this.face.enabled(), entries });
  }

  /** "Remember this": the message's text as an observation; `text` undefined: not a message of this chat. */
  async remember(text: string | undefined): Promise<void> {
    if (text === undefined) {
      this.face.warn('Ignored "Remember this" for an entry that is not a message of this chat.');
      return;
    }
    if (!this.face.enabled()) {
      this.face.notice('warning', 'Memory is off (peon.memory.enabled), so nothing was remembered.');
      return;
    }
    const store = this.face.store();
    if (!store) {
      this.face.notice('error', 'Open a folder first: memory is kept in the workspace (.peon/memory).');
      return;
    }
    try {
      const entry = await store.remember(text, 'panel');
      this.face.notice('info', `Remembered as ${entry.id}: ${cut(visibleText(entry.title), 300)}`);
    } catch (error) {
      this.face.notice('error', `Nothing was remembered: ${message(error)}`);
    }
    this.list();
  }

  /** Shows an entry's file in the editor (the chat stays as it is). */
  async open(id: string): Promise<void> {
    const found = this.entry(id);
    if (!found) return;
    try {
      await this.face.show(path.join(found.store.root, found.entry.file));
    } catch (error) {
      this.face.notice('error', `${found.entry.file} could not be opened: ${message(error)}`);
    }
  }

  /** Deletes an observation or summary once the person confirms; a curated file is theirs to edit. */
  async delete(id: string): Promise<void> {
    const found = this.entry(id);
    if (!found) return;
    const { entry, store } = found;
    if (entry.kind === 'curated') {
      this.face.notice('warning', `${entry.id} is the curated file ${entry.file}: Peon does not delete it. Edit or delete it yourself.`);
      return;
    }
    if (!(await this.face.confirmDelete(entry))) return;
    let text: string;
    try {
      text = await store.delete(entry.id);
      this.face.notice('info', `Deleted ${entry.id} from memory: ${cut(visibleText(entry.title), 300)}`);
    } catch (error) {
      this.face.notice('error', `${entry.id} was not deleted: ${message(error)}`);
      this.list();
      return;
    }
    this.list();
    // Nothing lost: the text is kept until the person has had their chance to take the delete back.
    if (!(await this.face.offerUndo(entry))) return;
    try {
      await store.restore(entry.id, text);
      this.face.notice('info', `Put ${entry.id} back in memory.`);
    } catch (error) {
      this.face.notice('error', `${entry.id} could not be put back: ${message(error)}`);
    }
    this.list();
  }

  /** The entry an id from the webview names, and its store; undefined (and the list refreshed) when there is none. */
  private entry(id: string): { entry: MemoryEntry; store: MemoryStore } | undefined {
    const store = this.face.store();
    const entry = store?.get(id, this.face.trusted());
    if (store && entry && entry.id === id) return { entry, store };
    this.face.warn(`Ignored a request for the memory entry "${cut(id, 100)}": there is no such entry.`);
    this.list();
    return undefined;
  }
}

function infoOf(entry: MemoryEntry, store: MemoryStore): MemoryInfo {
  let stale = false;
  try {
    stale = store.staleness(entry).stale;
  } catch {
    // A file that cannot be hashed reads as not stale here; mem-read says what changed.
  }
  return {
    id: entry.id, // ids are at most 100 characters (memoryEntry.ts); never cut, or two would collide
    kind: entry.kind,
    title: cut(entry.title, 300),
    file: cut(visibleText(entry.file), 4096),
    ...(entry.created ? { created: cut(entry.created, 40) } : {}),
    stale,
  };
}
