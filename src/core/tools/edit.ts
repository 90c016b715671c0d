import { isUtf8 } from 'node:buffer';
import fs from 'node:fs/promises';
import * as z from 'zod';
import type { ResolvedPath } from '../workspace/workspace';
import type { ToolContext } from './contract';
import { defineTool } from './defineTool';
import description from './edit.md';
import { fileChange, PROPOSAL_MAX_BYTES } from './fileAssessment';
import { replacementDiff } from './fileDiff';
import { fsError, ToolError } from './toolError';
import { checkFresh, commitFile, currentFile, sha256, type CurrentFile } from './fileState';

const input = z.object({
  path: z.string().min(1).describe('The file to edit (read it first).'),
  oldString: z.string().min(1).describe('The exact text to replace.'),
  newString: z.string().describe('The text to put in its place.'),
  replaceAll: z.boolean().optional().describe('Replace every occurrence instead of exactly one.'),
});
type Input = z.output<typeof input>;

interface Prepared {
  /** The file the edit was computed from (and the card's diff). */
  readonly current: CurrentFile;
  /** The new content as slices of the old bytes and the replacement: never joined into one copy. */
  readonly pieces: readonly Buffer[];
  readonly size: number;
  readonly replacements: number;
}

/** A file's own line ending: the one its first line ends with (as git's autocrlf detection). */
function usesCrlf(bytes: Buffer): boolean {
  const nl = bytes.indexOf(10);
  return nl > 0 && bytes[nl - 1] === 13;
}

/** Every non-overlapping offset of `needle` in `haystack`. */
function occurrences(haystack: Buffer, needle: Buffer): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** The edit computed from the file's current bytes; throws the typed errors of DESIGN.md §4. */
async function prepare(args: Input, target: ResolvedPath, ctx: ToolContext): Promise<{ prepared: Prepared; diff: string }> {
  if (args.oldString === args.newString) throw new ToolError('invalid_input', 'oldString and newString are the same: there is nothing to change.');
  const seen = ctx.snapshots.get(target.canonical);
  if (!seen) throw new ToolError('not_read', `Read ${target.display} before editing it.`);
  const current = await currentFile(target);
  if (!current) throw new ToolError('not_found', `${target.display} no longer exists.`);
  checkFresh(target, sha256(current.bytes), ctx);
  if (!isUtf8(current.bytes)) {
    throw new ToolError('not_utf8', `${target.display} is not valid UTF-8. edit refuses it rather than re-encode it; use write only if you mean to replace the whole file.`);
  }
  // A CRLF file edited with LF text: match and write in the file's own line endings, so
  // no bare LF ever lands in it (models write LF whatever the file uses).
  const crlf = usesCrlf(current.bytes);
  const toCrlf = (text: string): string => (crlf ? text.replace(/\r?\n/g, '\r\n') : text);
  let oldBytes = Buffer.from(args.oldString, 'utf8');
  let matches = occurrences(current.bytes, oldBytes);
  if (matches.length === 0 && crlf && args.oldString.includes('\n')) {
    oldBytes = Buffer.from(toCrlf(args.oldString), 'utf8');
    matches = occurrences(current.bytes, oldBytes);
  }
  const newBytes = Buffer.from(toCrlf(args.newString), 'utf8');
  if (matches.length === 0) {
    throw new ToolError('no_match', `oldString was not found in ${target.display}. Read the file again and copy the text exactly (whitespace included).`, { count: 0 });
  }
  if (matches.length > 1 && !args.replaceAll) {
    throw new ToolError(
      'multiple_matches',
      `oldString appears ${matches.length} times in ${target.display}. Add surrounding lines to make it unique, or set replaceAll.`,
      { count: matches.length },
    );
  }
  const pieces: Buffer[] = [];
  let from = 0;
  for (const at of matches) {
    pieces.push(current.bytes.subarray(from, at), newBytes);
    from = at + oldBytes.length;
  }
  pieces.push(current.bytes.subarray(from));
  const diff = replacementDiff(target.relative ?? target.display, current.bytes, matches, oldBytes.length, newBytes);
  const size = current.bytes.length + matches.length * (newBytes.length - oldBytes.length);
  return { prepared: { current, pieces, size, replacements: matches.length }, diff };
}

export const editTool = defineTool({
  name: 'edit',
  description,
  input,
  risk: 'filesystem',
  aliases: { filePath: 'path', file_path: 'path', old_string: 'oldString', new_string: 'newString', replace_all: 'replaceAll' },
  async assess(args, ctx) {
    const target = ctx.workspace.resolve(args.path);
    const { prepared, diff } = await prepare(args, target, ctx);
    const proposal = prepared.size <= PROPOSAL_MAX_BYTES ? { path: target, content: Buffer.concat(prepared.pieces).toString('utf8'), currentSha256: sha256(prepared.current.bytes) } : undefined;
    return fileChange(target, 'edit', diff, prepared, target, proposal);
  },
  async execute(_args, ctx, assessment) {
    const target = assessment.paths[0]!;
    const prepared = assessment.prepared as Prepared;
    // Re-check before committing, byte for byte (stronger than a hash, and cheaper): what is
    // written is exactly what was approved, on the very bytes it was computed from.
    let now: Buffer;
    try {
      now = await fs.readFile(target.canonical);
    } catch (error) {
      throw fsError(error, target.display);
    }
    if (!now.equals(prepared.current.bytes)) {
      throw new ToolError('stale', `${target.display} changed while the edit waited for approval. Read it again, then retry.`);
    }
    const hash = await commitFile(target, prepared.pieces, prepared.current);
    ctx.snapshots.record(target.canonical, { sha256: hash, size: prepared.size });
    const times = prepared.replacements === 1 ? '1 replacement' : `${prepared.replacements} replacements`;
    return {
      output: `Edited ${target.display}: ${times} (sha256 ${hash}).`,
      data: { path: target.display, sha256: hash, replacements: prepared.replacements, bytes: prepared.size },
    };
  },
});
