import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import type { ResolvedPath } from '../workspace/workspace';
import { defineTool } from './defineTool';
import { pathNotes, readRisk } from './fileAssessment';
import description from './list.md';
import { fsError, ToolError } from './toolError';

const MAX_ENTRIES = 1000;
const DEPTH = 2;

interface Entry {
  name: string;
  path: string;
  type: 'file' | 'directory' | 'symlink';
  size: number;
  depth: number;
}

const input = z.object({
  path: z.string().optional().describe('The directory to list; defaults to the workspace root.'),
});

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Entries of `dir`, ignore rules applied when it is inside the workspace; '/'-separated display paths. */
async function entriesOf(dir: Pick<ResolvedPath, 'canonical' | 'relative' | 'folder'>, prefix: string, depth: number): Promise<Entry[]> {
  const dirents = await fs.readdir(dir.canonical, { withFileTypes: true });
  const visible = dirents.filter((d) => {
    if (d.name === '.git') return false;
    if (!dir.folder || dir.relative === undefined) return true;
    return !dir.folder.ignore.isEntryIgnored(dir.relative, d.name, d.isDirectory());
  });
  const entries = await Promise.all(
    visible.sort(byName).map(async (d): Promise<Entry> => {
      const full = path.join(dir.canonical, d.name);
      const stat = await fs.lstat(full).catch(() => undefined);
      const type = d.isSymbolicLink() ? 'symlink' : d.isDirectory() ? 'directory' : 'file';
      return { name: d.name, path: prefix === '' || prefix === '.' ? d.name : `${prefix}/${d.name}`, type, size: stat?.size ?? 0, depth };
    }),
  );
  return entries;
}

export const listTool = defineTool({
  name: 'list',
  description,
  input,
  risk: 'read_only',
  async assess({ path: dir }, ctx) {
    const target = ctx.workspace.resolve(dir ?? '.');
    return { risk: readRisk([target]), writes: false, paths: [target], summary: { kind: 'file-access', path: target.display, reasons: pathNotes(target) } };
  },
  async execute(_args, _ctx, assessment) {
    const target = assessment.paths[0]!;
    let top: Entry[];
    try {
      const stat = await fs.stat(target.canonical);
      if (!stat.isDirectory()) throw new ToolError('invalid_input', `${target.display} is a file, not a directory. Use read to see it.`);
      top = await entriesOf(target, target.display, 1);
    } catch (error) {
      throw fsError(error, target.display);
    }
    const result: Entry[] = [];
    let truncated = false;
    for (const entry of top) {
      if (result.length >= MAX_ENTRIES) {
        truncated = true;
        break;
      }
      result.push(entry);
      if (entry.type !== 'directory' || DEPTH < 2) continue;
      const relative = target.relative === undefined ? undefined : target.relative === '' ? entry.name : `${target.relative}/${entry.name}`;
      const children = await entriesOf({ canonical: path.join(target.canonical, entry.name), relative, folder: target.folder }, entry.path, 2).catch(() => []);
      const room = MAX_ENTRIES - result.length;
      if (children.length > room) truncated = true;
      result.push(...children.slice(0, room));
    }
    const lines = result.map((e) => `${'  '.repeat(e.depth - 1)}${e.path}${e.type === 'directory' ? '/' : e.type === 'symlink' ? ' (symlink)' : ` (${e.size} bytes)`}`);
    if (result.length === 0) lines.push(`(${target.display} is empty)`);
    if (truncated) lines.push(`(listing cut at ${MAX_ENTRIES} entries: list a subdirectory or use glob for more)`);
    return { output: lines.join('\n'), data: { path: target.display, entries: result, truncated } };
  },
});
