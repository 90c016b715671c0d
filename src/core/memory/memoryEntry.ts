// One memory entry (DESIGN.md §4 "mem-search, mem-read"): a Markdown file under
// .peon/memory/ — an observation (observations/obs-xxxxxx.md), a session summary
// (summaries/sum-xxxxxx.md) or a curated file (AGENTS.md, .peon/memory/*.md). Its title
// is its first Markdown heading. Observations and summaries carry YAML front matter: the
// id, the kind, when it was written, and the files it is about with their hashes.
import { createHash } from 'node:crypto';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

export const MEMORY_KINDS = ['observation', 'decision', 'summary', 'curated'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** The ids mem-read takes: `obs-` or `sum-` and hex, or `cur-` and a slug. Nothing else, and never a path. */
export const MEMORY_ID = /^(?:(?:obs|sum)-[0-9a-f]{6,16}|cur-[a-z0-9]+(?:-[a-z0-9]+)*)$/;

export interface CitedFile {
  /** Workspace-relative, `/`-separated. */
  readonly path: string;
  readonly sha256: string;
}

/** An entry's facts; its text is read from its file when needed (memoryStore.ts `text`). */
export interface MemoryEntry {
  readonly id: string;
  readonly kind: MemoryKind;
  readonly title: string;
  /** Workspace-relative path of its file. */
  readonly file: string;
  readonly created?: string;
  readonly files: readonly CitedFile[];
}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** A curated file's id: `cur-` and its name as a slug (`AGENTS.md` → `cur-agents-md`, `deploy notes.md` → `cur-deploy-notes`). */
export function curatedId(fileName: string, keepExtension = false): string {
  const base = keepExtension ? fileName : fileName.replace(/\.md$/i, '');
  const slug = base.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'file';
  // A long name keeps its start and a short hash of all of it: ids stay short and two such names never share one.
  if (slug.length <= 60) return `cur-${slug}`;
  return `cur-${slug.slice(0, 50).replace(/-+$/, '')}-${createHash('sha256').update(fileName).digest('hex').slice(0, 8)}`;
}

/** The first Markdown heading, else the first line that has text, cut to 200 characters. */
export function titleOf(text: string, fallback: string): string {
  const heading = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(text)?.[1];
  const line = heading ?? text.split('\n').find((l) => l.trim() !== '');
  const title = (line ?? '').replace(/^[#>*\-\s]+/, '').replace(/[*_`]/g, '').trim();
  return title === '' ? fallback : title.length > 200 ? `${title.slice(0, 199)}…` : title;
}

/** Files an entry may cite, at most: a committed entry citing one file thousands of times costs no more than this. */
export const MAX_CITED = 20;

function citedFiles(raw: unknown): CitedFile[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const files: CitedFile[] = [];
  for (const f of raw) {
    if (!f || typeof f !== 'object' || typeof f.path !== 'string' || typeof f.sha256 !== 'string' || seen.has(f.path)) continue;
    seen.add(f.path);
    files.push({ path: f.path, sha256: f.sha256 });
    if (files.length === MAX_CITED) break;
  }
  return files;
}

const SIMPLE_LINE = /^([a-z][a-z0-9_-]*):[ \t]*([^'"&*!|>%@`#{}[\],\s][^#]*?)?[ \t]*$/;
const FILE_PATH = /^[ \t]+- path:[ \t]+([^'"&*!|>%@`#{}[\],\s][^#]*?)[ \t]*$/;
const FILE_HASH = /^[ \t]+sha256:[ \t]+([0-9a-f]{64})[ \t]*$/;

/**
 * The front matter Peon writes (plain `key: value` lines and a `files:` list of path and
 * sha256), read without a YAML parser: 10,000 entries index in a blink. Anything else
 * goes to the YAML parser; undefined when that fails too.
 */
function frontMatter(source: string): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {};
  const lines = source.split(/\r?\n/);
  let simple = true;
  for (let i = 0; i < lines.length && simple; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const match = SIMPLE_LINE.exec(line);
    if (!match) {
      simple = false;
      break;
    }
    if (match[1] === 'files' && match[2] === undefined) {
      const files: CitedFile[] = [];
      while (i + 2 < lines.length && FILE_PATH.test(lines[i + 1] ?? '')) {
        const hash = FILE_HASH.exec(lines[i + 2] ?? '');
        if (!hash) {
          simple = false;
          break;
        }
        files.push({ path: FILE_PATH.exec(lines[i + 1]!)![1]!, sha256: hash[1]! });
        i += 2;
      }
      meta.files = files;
    } else if (match[2] === undefined) {
      simple = false;
    } else {
      meta[match[1]!] = match[2];
    }
  }
  if (simple) return meta;
  try {
    const data: unknown = parseYaml(source, { schema: 'core', maxAliasCount: 20 });
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // a broken header still leaves the text searchable
  }
}

/** Parses an entry file; `fixed` is what its place says (the kind of a curated file, the id from the file name). */
export function parseEntry(raw: string, fixed: { readonly id: string; readonly kind: MemoryKind; readonly file: string }): { entry: MemoryEntry; text: string } {
  const match = fixed.kind === 'curated' ? null : FRONT_MATTER.exec(raw);
  const meta = (match && frontMatter(match[1]!)) || {};
  const text = match ? raw.slice(match[0].length) : raw;
  // An observation's own front matter may make it a decision; nothing else changes its kind.
  const kind: MemoryKind = fixed.kind === 'observation' && meta.kind === 'decision' ? 'decision' : fixed.kind;
  const created = typeof meta.created === 'string' ? meta.created : meta.created instanceof Date ? meta.created.toISOString() : undefined;
  const entry: MemoryEntry = { id: fixed.id, kind, title: titleOf(text, fixed.id), file: fixed.file, ...(created ? { created } : {}), files: citedFiles(meta.files) };
  return { entry, text };
}

/** The text of an entry file after its front matter. */
export const entryText = (raw: string, kind: MemoryKind): string => {
  const match = kind === 'curated' ? null : FRONT_MATTER.exec(raw);
  return match ? raw.slice(match[0].length) : raw;
};

/** The file of a new observation or summary: front matter, a heading, the text. */
export function formatEntry(entry: { readonly id: string; readonly kind: MemoryKind; readonly title: string; readonly body: string; readonly created: string; readonly files: readonly CitedFile[]; readonly source?: string }): string {
  const meta = { id: entry.id, kind: entry.kind, created: entry.created, ...(entry.source ? { source: entry.source } : {}), ...(entry.files.length ? { files: entry.files.map((f) => ({ path: f.path, sha256: f.sha256 })) } : {}) };
  return `---\n${stringifyYaml(meta).trimEnd()}\n---\n# ${entry.title.replace(/\s+/g, ' ')}\n\n${entry.body.trim()}\n`;
}
