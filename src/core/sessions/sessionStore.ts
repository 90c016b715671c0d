// Conversations persisted as append-only JSON lines, one file per session (DESIGN.md §6):
// every change is one line written as it happens, so a crash loses at most the event in
// flight; a torn last line is skipped on load.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Step } from '../checkpoints/checkpoints';
import type { SavedState } from '../conversation/state';
import type { HistoryItem } from '../model/modelClient';

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
  /** A step's checkpoint as recorded (what it changed, by content id): a resumed chat can revert it again. */
  | { readonly type: 'step'; readonly step: Step };

export interface LoadedSession {
  readonly meta: SessionMeta;
  readonly history: HistoryItem[];
  /** The panel messages (append, delta, tool) in order: replayed, they rebuild the transcript. */
  readonly view: unknown[];
  /** The conversation's last saved state, if it saved one. */
  readonly state?: SavedState;
  /** Its steps' checkpoints, in the order they were taken. */
  readonly steps: Step[];
}

const ID = /^[0-9a-z]+-[0-9a-f]{6}$/;

export class SessionStore {
  constructor(readonly dir: string) {}

  private file(id: string): string {
    if (!ID.test(id)) throw new Error(`Not a session id: ${JSON.stringify(id)}`);
    return path.join(this.dir, `${id}.jsonl`);
  }

  create(title: string): SessionMeta {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const id = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const createdAt = new Date().toISOString();
    const clean = title.replace(/\s+/g, ' ').trim().slice(0, 80) || 'New chat';
    this.append(id, { type: 'meta', title: clean, createdAt });
    return { id, title: clean, createdAt, updatedAt: createdAt };
  }

  append(id: string, record: SessionRecord): void {
    fs.appendFileSync(this.file(id), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  list(): SessionMeta[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const sessions: SessionMeta[] = [];
    for (const name of names) {
      const id = name.slice(0, -'.jsonl'.length);
      if (!ID.test(id)) continue;
      const file = path.join(this.dir, name);
      const first = readFirstLine(file);
      try {
        const meta = JSON.parse(first ?? '') as SessionRecord;
        if (meta.type !== 'meta') continue;
        sessions.push({ id, title: meta.title, createdAt: meta.createdAt, updatedAt: fs.statSync(file).mtime.toISOString() });
      } catch {
        // not a session file we can read: left alone
      }
    }
    return sessions.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  load(id: string): LoadedSession {
    const lines = fs.readFileSync(this.file(id), 'utf8').split('\n');
    let meta: SessionMeta | undefined;
    const history: HistoryItem[] = [];
    const view: unknown[] = [];
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
      else if (record.type === 'reset') history.splice(0, history.length, ...record.history);
      else if (record.type === 'view') view.push(record.message);
      else if (record.type === 'state' && typeof record.state === 'object' && record.state !== null) state = record.state;
      else if (record.type === 'step' && typeof record.step === 'object' && record.step !== null) steps.push(record.step);
    }
    if (!meta) throw new Error(`Session ${id} has no header line.`);
    return { meta, history, view, ...(state ? { state } : {}), steps };
  }

  /** Where a session's subagents are saved (agentStore.ts), beside its file. */
  agentsDir(id: string): string {
    return this.file(id).replace(/\.jsonl$/, '.agents');
  }

  delete(id: string): void {
    fs.rmSync(this.file(id), { force: true });
    fs.rmSync(this.agentsDir(id), { recursive: true, force: true });
  }
}

function readFirstLine(file: string): string | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, n).toString('utf8');
    const nl = text.indexOf('\n');
    return nl === -1 ? undefined : text.slice(0, nl);
  } finally {
    fs.closeSync(fd);
  }
}
