// One streamed pass over a file: its sha256, its line count and the bytes of a line
// range — never the whole file as a JS string (PERF.md B6/B7). The hash and line count
// are cached while the file's identity (device, inode, size, mtime) is unchanged (B6b).
import { createHash } from 'node:crypto';
import fs from 'node:fs';

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeNs: bigint;
}

interface Digest {
  readonly identity: FileIdentity;
  readonly sha256: string;
  readonly lines: number;
}

const digests = new Map<string, Digest>();
const MAX_CACHED = 512;

export function identityOf(stat: fs.BigIntStats): FileIdentity {
  return { dev: Number(stat.dev), ino: Number(stat.ino), size: Number(stat.size), mtimeNs: stat.mtimeNs };
}

const sameIdentity = (a: FileIdentity, b: FileIdentity): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;

export interface LineScan {
  readonly sha256: string;
  /** Lines in the file: newlines, plus one for a last line without a newline. */
  readonly lines: number;
  /** The selected lines' bytes, each without its line terminator, each at most `maxLineBytes`. */
  readonly selected: Buffer[];
  /** Each selected line's full length in bytes (longer than its bytes when it was cut). */
  readonly lengths: number[];
  /** The first line of `selected` (1-indexed). */
  readonly firstLine: number;
}

/** Memory bounds of one scan: what a huge `limit` or one gigantic line may hold. */
export interface ScanBounds {
  readonly maxBytes: number;
  readonly maxLineBytes: number;
}

/**
 * Lines `from`..`from + count - 1` (1-indexed) of an open file, plus the whole file's
 * hash and line count. With a cached digest it stops reading after the range.
 */
export async function scanLines(
  path: string,
  fd: fs.promises.FileHandle,
  identity: FileIdentity,
  from: number,
  count: number,
  signal?: AbortSignal,
  bounds: ScanBounds = { maxBytes: Number.MAX_SAFE_INTEGER, maxLineBytes: Number.MAX_SAFE_INTEGER },
): Promise<LineScan> {
  const cached = digests.get(path);
  const known = cached && sameIdentity(cached.identity, identity) ? cached : undefined;
  const hash = known ? undefined : createHash('sha256');
  let last = from + count - 1;
  const selected: Buffer[] = [];
  const lengths: number[] = [];
  let kept = 0; // bytes held in `selected`
  let partial: Buffer[] = []; // pieces of the current line, while it is in range
  let partialKept = 0;
  let partialFull = 0;
  const take = (piece: Buffer): void => {
    partialFull += piece.length;
    const room = Math.min(bounds.maxLineBytes - partialKept, bounds.maxBytes - kept - partialKept);
    if (room <= 0) return;
    const part = piece.length <= room ? piece : piece.subarray(0, room);
    partial.push(Buffer.from(part));
    partialKept += part.length;
  };
  const endLine = (): void => {
    selected.push(Buffer.concat(partial));
    lengths.push(partialFull);
    kept += partialKept;
    partial = [];
    partialKept = 0;
    partialFull = 0;
    if (kept >= bounds.maxBytes) last = Math.min(last, from + selected.length - 1); // the budget is spent: stop selecting
  };
  let line = 1; // the line being read: 1 + newlines seen
  let position = 0;
  let endedWithNewline = false;
  const buffer = Buffer.allocUnsafe(CHUNK);
  read: for (;;) {
    signal?.throwIfAborted(); // a 2 GB file takes seconds: Stop must not wait for it
    const { bytesRead } = await fd.read(buffer, 0, CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    hash?.update(chunk);
    endedWithNewline = chunk[bytesRead - 1] === NEWLINE;
    let start = 0;
    if (line <= last) {
      for (;;) {
        const nl = chunk.indexOf(NEWLINE, start);
        if (line >= from) take(chunk.subarray(start, nl === -1 ? chunk.length : nl));
        if (nl === -1) break;
        if (line >= from) endLine();
        line++;
        start = nl + 1;
        if (line > last) break;
      }
      if (line <= last) continue;
      if (known) break read;
    }
    // Past the range: only the count is left to learn.
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, nl + 1)) line++;
  }
  if (!endedWithNewline && position > 0 && line >= from && line <= last) endLine();
  const lines = known ? known.lines : position === 0 ? 0 : endedWithNewline ? line - 1 : line;
  const sha256 = known ? known.sha256 : hash!.digest('hex');
  if (!known) remember(path, { identity, sha256, lines });
  // A CRLF line is shown without its CR (and counted without it).
  for (const [i, bytes] of selected.entries()) {
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d && lengths[i] === bytes.length) {
      selected[i] = bytes.subarray(0, bytes.length - 1);
      lengths[i] = bytes.length - 1;
    }
  }
  return { sha256, lines, selected, lengths, firstLine: from };
}

/** Whole-file sha256 (cached by identity), for bytes mode and binary files. */
export async function hashFile(path: string, fd: fs.promises.FileHandle, identity: FileIdentity, signal?: AbortSignal): Promise<{ sha256: string; lines: number }> {
  const scan = await scanLines(path, fd, identity, Number.MAX_SAFE_INTEGER, 1, signal);
  return { sha256: scan.sha256, lines: scan.lines };
}

export function forgetDigest(path: string): void {
  digests.delete(path);
}

function remember(path: string, digest: Digest): void {
  if (digests.size >= MAX_CACHED) digests.delete(digests.keys().next().value!);
  digests.set(path, digest);
}

