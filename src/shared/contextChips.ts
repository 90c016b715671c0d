// Context chips (DESIGN.md §7): what the person attaches from the editor to their next
// message — a file, a folder, a selection with its line range, a file's problems, and
// the active editor's file riding along unless removed. The webview only names them;
// the host resolves each name to a workspace file and reads it itself.
import * as z from 'zod';

const id = z.string().min(1).max(100);
/** Workspace-relative ('/'-separated; `folder/…` with several folders), as the host wrote it or the picker listed it. */
const chipPath = z.string().min(1).max(4096);
const line = z.number().int().min(1).max(100_000_000);

/** The active editor's file: its selection (`selected`), else the lines in view. */
export const EditorChip = z.object({ kind: z.literal('editor'), id, path: chipPath, startLine: line, endLine: line, selected: z.boolean() });
export type EditorChip = z.infer<typeof EditorChip>;

export const ContextChip = z.discriminatedUnion('kind', [
  /** Lines of a file, as selected in the editor (Add Selection to Chat). */
  z.object({ kind: z.literal('selection'), id, path: chipPath, startLine: line, endLine: line }),
  /** A whole file (`@` in the composer). */
  z.object({ kind: z.literal('file'), id, path: chipPath }),
  /** A folder's entries (`@` in the composer). */
  z.object({ kind: z.literal('folder'), id, path: chipPath }),
  /** The editor's problems in a file (all, or those within the lines) and the lines they point at. */
  z.object({ kind: z.literal('problems'), id, path: chipPath, startLine: line.optional(), endLine: line.optional() }),
  EditorChip,
]);
export type ContextChip = z.infer<typeof ContextChip>;

/** How many chips one message carries, at most. */
export const MAX_CHIPS = 20;

/** What a sent message's chip reads under it in the transcript: a label, where it opens, and what happened to it. */
export const SentChip = z.object({
  label: z.string().max(300),
  /** The file it opens (workspace-relative), at `line`. */
  path: z.string().max(4096),
  line: line.optional(),
  /** Attached, but not whole ("first 400 of 2,000 lines"), or not attached at all (`refused`). */
  note: z.string().max(300).optional(),
  refused: z.boolean().optional(),
});
export type SentChip = z.infer<typeof SentChip>;

/** One entry of the `@` picker. */
export const FileMatch = z.object({ path: chipPath, kind: z.enum(['file', 'folder']) });
export type FileMatch = z.infer<typeof FileMatch>;

const baseName = (path: string): string => path.replace(/\/+$/, '').split('/').pop() ?? path;
const range = (from: number, to: number): string => (from === to ? `${from}` : `${from}–${to}`);

/** "index.js:3–7", "src/", "broken.json · problems": what a chip reads. */
export function chipLabel(chip: ContextChip): string {
  switch (chip.kind) {
    case 'selection':
      return `${baseName(chip.path)}:${range(chip.startLine, chip.endLine)}`;
    case 'file':
      return baseName(chip.path);
    case 'folder':
      return `${baseName(chip.path)}/`;
    case 'problems':
      return `${baseName(chip.path)}${chip.startLine !== undefined ? `:${range(chip.startLine, chip.endLine ?? chip.startLine)}` : ''} · problems`;
    case 'editor':
      return chip.selected ? `${baseName(chip.path)}:${range(chip.startLine, chip.endLine)}` : baseName(chip.path);
  }
}

/** Two chips that attach the same thing (the second adds nothing). */
export function sameChip(a: ContextChip, b: ContextChip): boolean {
  if (a.kind !== b.kind || a.path !== b.path) return false;
  const lines = (c: ContextChip): string => ('startLine' in c ? `${c.startLine}-${c.endLine}` : '');
  return lines(a) === lines(b);
}
