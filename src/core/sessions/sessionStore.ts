// Conversations persisted as append-only JSON lines, one file per session (DESIGN.md §6):
// every change is one line written as it happens, so a crash loses at most the event in
// flight; a torn last line is skipped on load. Listing and searching go through an index
// beside them (sessionIndex.ts), so hundreds of sessions stay quick to list and search.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Step } from '../checkpoints/checkpoints';
import type { SavedState } from '../conversation/state';
import type { HistoryItem } from '../model/modelClient';
import { SessionIndex, type SearchResult, type SessionSummary } from './sessionIndex';
import { cleanTitle, titleFrom } from './sessionTitle';

export type { SearchHit, SearchResult, SessionSummary } from './sessionIndex';

export interface SessionMeta {
  readonly id: string;
  readonly title: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What a session file holds, line by line: its title, the model history, and the panel's changes. */
export type SessionRecord =
  | { readonly type: 'meta'; readonly title: string; readonly createdAt: string }
  | { readonly type: 'history'; readonly item: HistoryItem }
  /** The history replaced whole (after compaction). */
  | { readonly type: 'reset'; readonly history: HistoryItem[] }
  | { readonly type: 'view'; readonly message: unknown }
  /** The conversation's state (mode, grants) as it became; the last one counts. */
  | { readonly type: 'state'; readonly state: SavedState }
  /** The person renamed the chat; the last one counts. */
  | { readonly type: 'title'; readonly title: string }
  /** A message of the person's (transcript entry `entry`) joined the history at index `at`: editing it cuts the history there. */
  | { readonly type: 'mark'; readonly entry: string; readonly at: number }
  /** The history cut back to its first `length` items (a message edited, an answer retried). */
  | { readonly type: 'truncate'; readonly length: number }
  /** A file this conversation deleted, kept in the workspace's trash under this id. */
  | { readonly type: 'trashed'; readonly trashId: string }
  /** A step's checkpoint as recorded (what it changed, by content id): a resumed chat can revert it again. */
  | { readonly type: 'step'; readonly step: Step };

export interface LoadedSession {
  readonly meta: SessionMeta;
  readonly history: HistoryItem[];
  /** The panel messages (append, delta, tool) in order: replayed, they rebuild the transcript. */
  readonly view: unknown[];
  /** The conversation's last saved state, if it saved one. */
  readonly state?: SavedState;
  /** Where each message of the person's joined the history (by transcript entry), for those still in it. */
  readonly marks: ReadonlyMap<string, number>;
  /** The trash ids of the files it deleted. */
  readonly trashed: readonly string[];
  /** Its steps' checkpoints, in the order they were taken. */
  readonly steps: Step[];
}

const ID = /^[0-9a-z]+-[0-9a-f]{6}$/;
/** The file naming the chat the panel shows (setShown). */
const SHOWN = 'shown';

export class SessionStore {
  private readonly index: SessionIndex;

  constructor(readonly dir: string) {
    this.index = new SessionIndex(dir, ID);
  }

  private file(id: string): string {
    if (!ID.test(id)) throw new Error(`Not a session id: ${JSON.stringify(id)}`);
    return path.join(this.dir, `${id}.jsonl`);
  }

  /** A new session for a chat whose first message is `firstMessage` (its title is taken from it). */
  create(firstMessage: string): SessionMeta {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const id = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const createdAt = new Date().toISOString();
    const title = titleFrom(firstMessage);
    this.append(id, { type: 'meta', title, createdAt });
    return { id, title, createdAt, updatedAt: createdAt };
  }

  append(id: string, record: SessionRecord): void {
    fs.appendFileSync(this.file(id), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  exists(id: string): boolean {
    return ID.test(id) && fs.existsSync(this.file(id));
  }

  /** Saved conversations, most recently active first. */
  list(): SessionSummary[] {
    return this.index.list();
  }

  /** The sessions whose title or messages hold every word of `query` (newest first); see SessionIndex.search. */
  search(query: string, limit?: number): SearchResult {
    return this.index.search(query, limit);
  }

  /** Gives a session the person's title; it keeps its place in the list (renaming is not activity). */
  rename(id: string, title: string): string {
    const file = this.file(id);
    const clean = cleanTitle(title);
    if (clean === '') throw new Error('A title cannot be empty.');
    const { atime, mtime } = fs.statSync(file);
    this.append(id, { type: 'title', title: clean });
    fs.utimesSync(file, atime, mtime);
    return clean;
  }

  load(id: string): LoadedSession {
    const lines = fs.readFileSync(this.file(id), 'utf8').split('\n');
    let meta: SessionMeta | undefined;
    let title: string | undefined;
    const history: HistoryItem[] = [];
    const view: unknown[] = [];
    const marks = new Map<string, number>();
    const trashed: string[] = [];
    let state: SavedState | undefined;
    const steps: Step[] = [];
    for (const line of lines) {
      if (line === '') continue;
      let record: SessionRecord;
      try {
        record = JSON.parse(line) as SessionRecord;
      } catch {
        continue; // a line torn by a crash
      }
      if (record.type === 'meta') meta = { id, title: record.title, createdAt: record.createdAt, updatedAt: record.createdAt };
      else if (record.type === 'history') history.push(record.item);
      else if (record.type === 'reset') {
        history.splice(0, history.length, ...record.history);
        marks.clear(); // the turns were summarised: no message of the person's is where it was
      } else if (record.type === 'view') view.push(record.message);
      else if (record.type === 'state' && typeof record.state === 'object' && record.state !== null) state = record.state;
      else if (record.type === 'title' && typeof record.title === 'string') title = record.title;
      else if (record.type === 'mark' && typeof record.entry === 'string' && Number.isInteger(record.at)) marks.set(record.entry, record.at);
      else if (record.type === 'truncate' && Number.isInteger(record.length)) {
        history.splice(record.length);
        for (const [entry, at] of marks) if (at >= record.length) marks.delete(entry);
      } else if (record.type === 'trashed' && typeof record.trashId === 'string') trashed.push(record.trashId);
      else if (record.type === 'step' && typeof record.step === 'object' && record.step !== null) steps.push(record.step);
    }
    if (!meta) throw new Error(`Session ${id} has no header line.`);
    return { meta: title ? { ...meta, title } : meta, history, view, marks, trashed, ...(state ? { state } : {}), steps };
  }

  /** Where a session's subagents are saved (agentStore.ts), beside its file. */
  agentsDir(id: string): string {
    return this.file(id).replace(/\.jsonl$/, '.agents');
  }

  /**
   * Remembers the chat this workspace's panel shows (undefined: a new one), so the next
   * window reopens it. A file written now, not the editor's workspace state: in a browser
   * (code-server) that state reaches its database a moment later, and a reload right
   * after resuming a chat lost it.
   */
  setShown(id: string | undefined): void {
    const file = path.join(this.dir, SHOWN);
    if (id === undefined) return fs.rmSync(file, { force: true });
    this.file(id); // an id, not a path
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(`${file}.tmp`, id, { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, file);
  }

  /** The chat remembered by setShown, while it is still saved. */
  shown(): string | undefined {
    let id: string;
    try {
      id = fs.readFileSync(path.join(this.dir, SHOWN), 'utf8').trim();
    } catch {
      return undefined;
    }
    return this.exists(id) ? id : undefined;
  }

  delete(id: string): void {
    fs.rmSync(this.file(id), { force: true });
    fs.rmSync(this.agentsDir(id), { recursive: true, force: true });
    this.index.forget(id);
  }
}
