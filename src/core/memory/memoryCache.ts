// The memory index saved between sessions: `.peon/memory/.cache/index.json`, next to a
// `.gitignore` of `*` so it never lands in a commit. It holds each entry's facts with the
// size and time of its file, and the BM25 state; a new store starts from it and reads
// again only the files whose size or time changed. A cache that does not parse, or was
// written by another version, is ignored; writing one is best effort.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Bm25Index } from '../search/bm25';
import { MEMORY_ID, MEMORY_KINDS, type MemoryEntry } from './memoryEntry';
import { writeExclusive } from './memoryFiles';
import { readBounded } from '../workspace/safeRead';
import type { Held } from './memoryStore';

// 2: terms are stemmed (bm25.ts); an index saved before is read again from the files.
const VERSION = 2;
const CACHE_DIR = '.cache';
const CACHE_FILE = 'index.json';
/** A saved index larger than this is not read (10,000 entries take about 10 MB). */
const MAX_CACHE_BYTES = 256 * 1024 * 1024;

const isId = (value: unknown): value is string => typeof value === 'string' && MEMORY_ID.test(value);

function heldOf(raw: unknown): [string, Held] | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { id, kind, title, file, created, files, mtimeMs, size } = raw as Record<string, unknown>;
  if (!isId(id) || !(MEMORY_KINDS as readonly unknown[]).includes(kind) || typeof title !== 'string' || typeof file !== 'string' || typeof mtimeMs !== 'number' || typeof size !== 'number') return undefined;
  if (created !== undefined && typeof created !== 'string') return undefined;
  if (!Array.isArray(files) || !files.every((f) => f && typeof f.path === 'string' && typeof f.sha256 === 'string')) return undefined;
  const entry: MemoryEntry = { id, kind: kind as MemoryEntry['kind'], title, file, ...(created ? { created } : {}), files: files.map((f) => ({ path: f.path, sha256: f.sha256 })) };
  return [id, { entry, mtimeMs, size }];
}

export function loadCache(memoryDir: string): { held: Map<string, Held>; index: Bm25Index<string> } | undefined {
  let data: unknown;
  try {
    const dir = path.join(memoryDir, CACHE_DIR);
    if (!fs.lstatSync(dir).isDirectory()) return undefined;
    const text = readBounded(path.join(dir, CACHE_FILE), MAX_CACHE_BYTES);
    if (text === undefined) return undefined;
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!data || typeof data !== 'object' || (data as { version?: unknown }).version !== VERSION) return undefined;
  const { entries, index: state } = data as { entries?: unknown; index?: unknown };
  if (!Array.isArray(entries)) return undefined;
  const held = new Map<string, Held>();
  for (const raw of entries) {
    const item = heldOf(raw);
    if (!item) return undefined;
    held.set(...item);
  }
  const index = Bm25Index.load(state, isId);
  // The two must describe the same entries, or neither is used.
  if (!index || index.size !== held.size || ![...held.keys()].every((id) => index.has(id))) return undefined;
  return { held, index };
}

/** Saves the index into `memoryDir` (a real folder, checked by the caller). */
export function saveCache(memoryDir: string, held: ReadonlyMap<string, Held>, index: Bm25Index<string>): void {
  const dir = path.join(memoryDir, CACHE_DIR);
  const entries = [...held.values()].map((h) => ({ ...h.entry, mtimeMs: h.mtimeMs, size: h.size }));
  const temp = path.join(dir, `${CACHE_FILE}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    try {
      fs.mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stat = fs.lstatSync(dir);
    if (stat.isSymbolicLink() || !stat.isDirectory()) return;
    try {
      writeExclusive(path.join(dir, '.gitignore'), '*\n');
    } catch {
      // There already (or a link planted there, which is not followed).
    }
    writeExclusive(temp, JSON.stringify({ version: VERSION, entries, index: index.save() }));
    fs.renameSync(temp, path.join(dir, CACHE_FILE));
  } catch {
    fs.rmSync(temp, { force: true });
  }
}
