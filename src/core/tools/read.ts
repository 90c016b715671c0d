import fs from 'node:fs/promises';
import * as z from 'zod';
import { binaryKind, SNIFF_BYTES } from '../workspace/fileKind';
import { hashFile, identityOf, scanLines } from '../workspace/fileScan';
import type { ResolvedPath } from '../workspace/workspace';
import type { ToolContext, ToolResult } from './contract';
import { defineTool } from './defineTool';
import { fileAccess } from './fileAssessment';
import description from './read.md';
import { requireRegular } from './fileState';
import { fsError, ToolError } from './toolError';

const DEFAULT_LINES = 2000;
const DEFAULT_BYTES = 65_536;
const MAX_LINE_CHARS = 2000;

const input = z.object({
  path: z.string().min(1).describe('The file to read: relative to the workspace root, absolute, or starting with ~.'),
  offset: z.number().int().min(0).optional().describe('Line mode: the first line to return, 1-indexed (0 counts as 1). Byte mode: the first byte.'),
  limit: z.number().int().min(1).optional().describe(`Line mode: how many lines (default ${DEFAULT_LINES}). Byte mode: how many bytes (default ${DEFAULT_BYTES}).`),
  unit: z.enum(['lines', 'bytes']).optional().describe('"lines" (default) or "bytes".'),
});
type Input = z.output<typeof input>;

export const readTool = defineTool({
  name: 'read',
  description,
  input,
  risk: 'read_only',
  aliases: { filePath: 'path', file_path: 'path' },
  assess: async ({ path }, ctx) => fileAccess(ctx.workspace.resolve(path)),
  async execute(args, ctx, assessment) {
    const target = assessment.paths[0]!;
    let handle: fs.FileHandle;
    try {
      // Checked before opening: opening a FIFO for reading blocks until a writer comes.
      const stat = await fs.stat(target.canonical);
      if (stat.isDirectory()) throw new ToolError('invalid_input', `${target.display} is a directory. Use list to see its entries.`);
      requireRegular(stat, target);
      handle = await fs.open(target.canonical, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    } catch (error) {
      throw fsError(error, target.display);
    }
    try {
      const stat = await handle.stat({ bigint: true });
      if (stat.isDirectory()) throw new ToolError('invalid_input', `${target.display} is a directory. Use list to see its entries.`);
      const identity = identityOf(stat);
      const head = Buffer.alloc(Math.min(SNIFF_BYTES, identity.size));
      await handle.read(head, 0, head.length, 0);
      const kind = binaryKind(head);
      if (kind) return binaryResult(target, kind, await hashFile(target.canonical, handle, identity, ctx.signal), identity.size, ctx);
      return args.unit === 'bytes'
        ? await readBytes(args, target, handle, identity, ctx)
        : await readLines(args, target, handle, identity, ctx);
    } finally {
      await handle.close();
    }
  },
});

function meta(target: ResolvedPath, sha256: string, size: number, lines: number) {
  return { path: target.display, sha256, size, lines, ...(target.ignored ? { ignored: true } : {}) };
}

function binaryResult(target: ResolvedPath, kind: string, digest: { sha256: string; lines: number }, size: number, ctx: ToolContext): ToolResult {
  ctx.snapshots.record(target.canonical, { sha256: digest.sha256, size });
  return {
    output: `${target.display} is a binary file (${kind}, ${size} bytes); its contents are not shown.`,
    data: { ...meta(target, digest.sha256, size, digest.lines), binary: kind, truncated: false },
  };
}

async function readLines(args: Input, target: ResolvedPath, handle: fs.FileHandle, identity: ReturnType<typeof identityOf>, ctx: ToolContext): Promise<ToolResult> {
  const from = Math.max(1, args.offset ?? 1);
  const limit = args.limit ?? DEFAULT_LINES;
  // Memory stays bounded whatever `limit` is or however long one line is.
  const bounds = { maxBytes: ctx.limits.maxOutputChars * 4, maxLineBytes: MAX_LINE_CHARS * 4 };
  const scan = await scanLines(target.canonical, handle, identity, from, limit, ctx.signal, bounds);
  ctx.snapshots.record(target.canonical, { sha256: scan.sha256, size: identity.size });
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const width = String(from + scan.selected.length - 1).length;
  const out: string[] = [];
  let chars = 0;
  let cutLines = 0;
  let notUtf8 = false;
  let shown = 0;
  for (const [i, bytes] of scan.selected.entries()) {
    const fullBytes = scan.lengths[i] ?? bytes.length;
    let text = decoder.decode(bytes);
    // A line kept only in part may end inside a character: that is not a file fault.
    if (fullBytes > bytes.length && text.endsWith('\uFFFD')) text = text.slice(0, -1);
    if (!notUtf8 && text.includes('\uFFFD')) notUtf8 = true;
    if (fullBytes > bytes.length || text.length > MAX_LINE_CHARS) {
      const size = fullBytes > bytes.length ? `${fullBytes} bytes` : `${text.length} characters`;
      text = `${text.slice(0, MAX_LINE_CHARS)}… [line cut: ${size}]`;
      cutLines++;
    }
    const row = `${String(from + shown).padStart(width)}\t${text}`;
    if (chars + row.length + 1 > ctx.limits.maxOutputChars && shown > 0) break;
    out.push(row);
    chars += row.length + 1;
    shown++;
  }
  const to = from + shown - 1;
  const truncated = to < scan.lines || cutLines > 0;
  const notes: string[] = [];
  if (shown === 0) notes.push(scan.lines === 0 ? '(empty file)' : `(the file has ${scan.lines} lines; offset ${from} is past the end)`);
  else if (to < scan.lines) notes.push(`(lines ${from}-${to} of ${scan.lines}; read again with offset ${to + 1} for more)`);
  if (cutLines > 0) notes.push(`(${cutLines} long line(s) cut at ${MAX_LINE_CHARS} characters)`);
  if (notUtf8) notes.push('(the file is not valid UTF-8: invalid bytes are shown as U+FFFD; edit will refuse this file)');
  if (target.ignored) notes.push('(this file is ignored by .gitignore or .peonignore)');
  notes.push(...diagnosticNotes(target, ctx));
  return {
    output: [...out, ...notes].join('\n'),
    data: {
      ...meta(target, scan.sha256, identity.size, scan.lines),
      unit: 'lines',
      range: shown === 0 ? null : { from, to },
      truncated,
      ...(notUtf8 ? { utf8: false } : {}),
    },
  };
}

/** How many of the editor's diagnostics a read carries. */
const MAX_DIAGNOSTICS = 50;

/** The editor's current problems in the file, when the host knows them. */
function diagnosticNotes(target: ResolvedPath, ctx: ToolContext): string[] {
  const lines = ctx.diagnostics?.(target.canonical) ?? [];
  if (lines.length === 0) return [];
  const more = lines.length > MAX_DIAGNOSTICS ? [`… ${lines.length - MAX_DIAGNOSTICS} more`] : [];
  return ['', `Problems VS Code reports in ${target.display}:`, ...lines.slice(0, MAX_DIAGNOSTICS), ...more];
}

async function readBytes(args: Input, target: ResolvedPath, handle: fs.FileHandle, identity: ReturnType<typeof identityOf>, ctx: ToolContext): Promise<ToolResult> {
  const offset = args.offset ?? 0;
  const requested = args.limit ?? DEFAULT_BYTES;
  const limit = Math.min(requested, ctx.limits.maxReadBytes);
  const digest = await hashFile(target.canonical, handle, identity, ctx.signal);
  ctx.snapshots.record(target.canonical, { sha256: digest.sha256, size: identity.size });
  const length = Math.max(0, Math.min(limit, identity.size - offset));
  const bytes = Buffer.alloc(length);
  if (length > 0) await handle.read(bytes, 0, length, offset);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ToolError('not_utf8', `Bytes ${offset}-${offset + length} of ${target.display} are not valid UTF-8 (the range may split a character). Read a different range, or use line mode.`, {
      offset,
      length,
    });
  }
  const end = offset + length;
  const truncated = end < identity.size;
  const notes: string[] = [];
  if (requested > limit) notes.push(`(limit lowered from ${requested} to the maximum of ${limit} bytes)`);
  if (truncated) notes.push(`(bytes ${offset}-${end} of ${identity.size}; read again with offset ${end} for more)`);
  return {
    output: [text, ...notes].filter((s) => s !== '').join('\n'),
    data: { ...meta(target, digest.sha256, identity.size, digest.lines), unit: 'bytes', range: { from: offset, to: end }, truncated },
  };
}
