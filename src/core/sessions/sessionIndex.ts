// The saved conversations as the history view lists and searches them, quick with
// hundreds of sessions:
// - a summary per session (title, dates, messages, cost, size) kept in index.json beside
//   them; a session file is read again only when its size or mtime changed (the chat in
//   progress, a renamed one), so listing costs a directory read and a stat per file;
// - a content search over the messages' text (the person's and Peon's, not tool output):
//   a file is read only when a search first needs it, its text then kept in a cache
//   bounded in characters (least recently used out first); one search reads at most
//   SEARCH_BYTES of files not cached yet, newest first, and older chats past that are
//   matched by their title only (the result says how many). Each keystroke after the
//   first then searches memory.
import fs from 'node:fs';
import path from 'node:path';

export interface SessionSummary {
  readonly id: string;
  readonly title: string;
  readonly createdAt: string;
  /** When it last changed (its file's mtime). */
  readonly updatedAt: string;
  /** Messages in its transcript: the person's and Peon's. */
  readonly messages: number;
  /** What it cost in USD, when every request's price was known. */
  readonly cost?: number;
  /** Its file's size. */
  readonly bytes: number;
}

export interface SearchHit extends SessionSummary {
  /** Where a word of the query was found in its messages (not shown when the title alone matched). */
  readonly snippet?: string;
}

export interface SearchResult {
  readonly hits: SearchHit[];
  readonly total: number;
  /** Sessions matched by their title only: the search had read all it may (SEARCH_BYTES) before reaching them. */
  readonly titlesOnly: number;
}

/** What one search may read from files not yet cached. */
export const SEARCH_BYTES = 64 * 1024 * 1024;
/** Characters of message text kept for searching, over all sessions (text and its lower case, both counted). */
export const CACHE_CHARS = 16_000_000;
/** Characters of one session's messages that are searched. */
export const SESSION_TEXT_CHARS = 2_000_000;

interface Indexed extends SessionSummary {
  readonly mtimeMs: number;
}

interface Text {
  readonly mtimeMs: number;
  readonly bytes: number;
  readonly text: string;
  readonly lower: string;
}

const INDEX_VERSION = 1;

export class SessionIndex {
  private entries: Map<string, Indexed> | undefined;
  private readonly texts = new Map<string, Text>();
  private cachedChars = 0;

  constructor(
    private readonly dir: string,
    private readonly idPattern: RegExp,
    private readonly limits = { searchBytes: SEARCH_BYTES, cacheChars: CACHE_CHARS },
  ) {}

  private get indexFile(): string {
    return path.join(this.dir, 'index.json');
  }

  /** Every session, most recently active first; files changed since the index was written are read again. */
  list(): SessionSummary[] {
    const entries = (this.entries ??= this.readIndex());
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
    let changed = false;
    const seen = new Set<string>();
    for (const name of names) {
      const id = name.slice(0, -'.jsonl'.length);
      if (!this.idPattern.test(id)) continue;
      let stat: fs.Stats;
      try {
        stat = fs.statSync(path.join(this.dir, name));
      } catch {
        continue; // deleted meanwhile
      }
      seen.add(id);
      const known = entries.get(id);
      if (known && known.mtimeMs === stat.mtimeMs && known.bytes === stat.size) continue;
      const scanned = this.scan(id, stat);
      if (scanned) entries.set(id, scanned);
      else entries.delete(id);
      changed = true;
    }
    for (const id of entries.keys()) {
      if (seen.has(id)) continue;
      entries.delete(id);
      changed = true;
    }
    if (changed) this.writeIndex(entries);
    return [...entries.values()].map(summaryOf).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
  }

  /**
   * The sessions whose title or messages hold every word of `query` (case-insensitive),
   * most recently active first, at most `limit`. An empty query lists them all.
   */
  search(query: string, limit = 200): SearchResult {
    const all = this.list();
    const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
    if (words.length === 0) return { hits: all.slice(0, limit), total: all.length, titlesOnly: 0 };
    const hits: SearchHit[] = [];
    let budget = this.limits.searchBytes;
    let titlesOnly = 0;
    for (const session of all) {
      if (hits.length >= limit) break;
      const title = session.title.toLowerCase();
      const rest = words.filter((w) => !title.includes(w));
      if (rest.length === 0) {
        hits.push(session);
        continue;
      }
      let text = this.cached(session);
      if (!text && budget > 0) {
        budget -= session.bytes;
        text = this.read(session.id);
      }
      if (!text) titlesOnly++;
      else if (rest.every((w) => text.lower.includes(w))) hits.push({ ...session, snippet: snippetOf(text, rest[0]!) });
    }
    return { hits, total: all.length, titlesOnly };
  }

  /** A session deleted: out of the index and the cache. */
  forget(id: string): void {
    const text = this.texts.get(id);
    if (text) this.uncache(id, text);
    if (this.entries?.delete(id)) this.writeIndex(this.entries);
  }

  private cached(session: SessionSummary): Text | undefined {
    const text = this.texts.get(session.id);
    const entry = this.entries?.get(session.id);
    if (!text || !entry || text.mtimeMs !== entry.mtimeMs || text.bytes !== entry.bytes) return undefined;
    // Used now: it moves to the end, the last to be evicted.
    this.texts.delete(session.id);
    this.texts.set(session.id, text);
    return text;
  }

  private read(id: string): Text | undefined {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(path.join(this.dir, `${id}.jsonl`));
    } catch {
      return undefined;
    }
    this.scan(id, stat);
    return this.texts.get(id);
  }

  /** Reads one session file: its summary, and its messages' text into the cache. */
  private scan(id: string, stat: fs.Stats): Indexed | undefined {
    let raw: string;
    try {
      raw = fs.readFileSync(path.join(this.dir, `${id}.jsonl`), 'utf8');
    } catch {
      return undefined;
    }
    const read = readSession(raw);
    if (!read) return undefined;
    const text = read.text.slice(0, SESSION_TEXT_CHARS);
    const old = this.texts.get(id);
    if (old) this.uncache(id, old);
    this.texts.set(id, { mtimeMs: stat.mtimeMs, bytes: stat.size, text, lower: text.toLowerCase() });
    this.cachedChars += text.length * 2;
    for (const [other, cached] of this.texts) {
      if (this.cachedChars <= this.limits.cacheChars || other === id) break;
      this.uncache(other, cached);
    }
    const { text: _text, ...summary } = read;
    return { id, ...summary, updatedAt: stat.mtime.toISOString(), bytes: stat.size, mtimeMs: stat.mtimeMs };
  }

  private uncache(id: string, text: Text): void {
    this.texts.delete(id);
    this.cachedChars -= text.text.length * 2;
  }

  private readIndex(): Map<string, Indexed> {
    try {
      const saved = JSON.parse(fs.readFileSync(this.indexFile, 'utf8')) as { version?: number; sessions?: Indexed[] };
      if (saved.version !== INDEX_VERSION || !Array.isArray(saved.sessions)) return new Map();
      return new Map(saved.sessions.filter((s) => typeof s?.id === 'string' && typeof s.title === 'string' && typeof s.mtimeMs === 'number').map((s) => [s.id, s]));
    } catch {
      return new Map(); // none yet, or unreadable: rebuilt from the files
    }
  }

  private writeIndex(entries: Map<string, Indexed>): void {
    const temp = `${this.indexFile}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, JSON.stringify({ version: INDEX_VERSION, sessions: [...entries.values()] }), { mode: 0o600 });
      fs.renameSync(temp, this.indexFile);
    } catch {
      fs.rmSync(temp, { force: true }); // the index is a cache: the files are read again next time
    }
  }
}

const summaryOf = ({ mtimeMs: _mtimeMs, ...summary }: Indexed): SessionSummary => summary;

/** Lines the index never needs (the model's history, its state): skipped without parsing. */
const SKIPPED = ['{"type":"history"', '{"type":"reset"', '{"type":"state"', '{"type":"mark"', '{"type":"truncate"'];

/** A session file's title, start, message count and cost, and its messages' text; undefined without a header. */
export function readSession(raw: string): { title: string; createdAt: string; messages: number; cost?: number; text: string } | undefined {
  let title: string | undefined;
  let createdAt: string | undefined;
  let cost: number | undefined;
  // The messages as the transcript shows them: appended, grown by deltas, removed when a message was edited.
  const messages = new Map<string, string>();
  for (const line of raw.split('\n')) {
    if (line === '' || SKIPPED.some((p) => line.startsWith(p))) continue;
    let record: { type?: unknown; title?: unknown; createdAt?: unknown; message?: Record<string, unknown> };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    if (record.type === 'meta' && typeof record.title === 'string') {
      title ??= record.title;
      createdAt = typeof record.createdAt === 'string' ? record.createdAt : '';
    } else if (record.type === 'title' && typeof record.title === 'string') title = record.title;
    else if (record.type === 'view' && record.message && typeof record.message === 'object') {
      const m = record.message;
      const entry = m.entry as { kind?: unknown; id?: unknown; text?: unknown } | undefined;
      if (m.type === 'append' && entry && (entry.kind === 'user' || entry.kind === 'assistant') && typeof entry.id === 'string' && typeof entry.text === 'string') messages.set(entry.id, entry.text);
      else if (m.type === 'delta' && typeof m.id === 'string' && typeof m.text === 'string' && messages.has(m.id)) messages.set(m.id, messages.get(m.id)! + m.text);
      else if (m.type === 'remove' && typeof m.id === 'string') messages.delete(m.id);
      else if (m.type === 'usage') cost = typeof m.chatCost === 'number' ? m.chatCost : undefined;
    }
  }
  if (title === undefined || createdAt === undefined) return undefined;
  return { title, createdAt, messages: messages.size, ...(cost !== undefined ? { cost } : {}), text: [...messages.values()].join('\n\n') };
}

/** About a line of text around the first `word` in it, on one line, cut at words. */
function snippetOf(text: Text, word: string): string {
  const at = text.lower.indexOf(word);
  const start = Math.max(0, at - 60);
  const end = Math.min(text.text.length, at + word.length + 80);
  let piece = text.text.slice(start, end);
  if (start > 0) piece = piece.replace(/^\S*\s/, '');
  if (end < text.text.length) piece = piece.replace(/\s\S*$/, '');
  return `${start > 0 ? '…' : ''}${piece.replace(/\s+/g, ' ').trim()}${end < text.text.length ? '…' : ''}`;
}
