// What write, edit and delete share about the file they change: its current bytes and
// owner, the stale check against what this session saw, and the atomic write that
// returns the new content's hash.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite, type Owner } from '../workspace/atomicWrite';
import { IGNORE_FILES } from '../workspace/ignoreRules';
import type { ResolvedPath } from '../workspace/workspace';
import type { ToolContext } from './contract';
import { fsError, ToolError } from './toolError';

export const sha256 = (data: Uint8Array | readonly Uint8Array[]): string => {
  const hash = createHash('sha256');
  for (const piece of Array.isArray(data) ? data : [data]) hash.update(piece);
  return hash.digest('hex');
};

export interface CurrentFile {
  readonly bytes: Buffer;
  readonly mode: number;
  readonly owner: Owner;
}

/** Only regular files are read or replaced: a FIFO or a device would block or never end. */
export function requireRegular(stat: { isFile(): boolean; isDirectory(): boolean }, target: ResolvedPath): void {
  if (stat.isDirectory()) throw new ToolError('invalid_input', `${target.display} is a directory.`);
  if (!stat.isFile()) throw new ToolError('invalid_input', `${target.display} is not a regular file (a pipe, socket or device); file tools leave it alone.`);
}

/** The file as it is now, or undefined when it does not exist. */
export async function currentFile(target: ResolvedPath): Promise<CurrentFile | undefined> {
  try {
    const stat = await fs.stat(target.canonical);
    requireRegular(stat, target);
    return { bytes: await fs.readFile(target.canonical), mode: stat.mode & 0o7777, owner: { uid: stat.uid, gid: stat.gid } };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fsError(error, target.display);
  }
}

/** Refuses to overwrite what this session has not seen: the stale check of `write` and `edit`. */
export function checkFresh(target: ResolvedPath, currentHash: string | undefined, ctx: ToolContext, expected?: string): void {
  if (expected !== undefined && expected.toLowerCase() !== currentHash) {
    throw new ToolError(
      'stale',
      currentHash === undefined
        ? `${target.display} does not exist, but expected_sha256 was given. Check the path.`
        : `${target.display} changed: its sha256 is ${currentHash}, not the expected ${expected}. Read it again, then retry.`,
      { currentSha256: currentHash ?? null },
    );
  }
  const seen = ctx.snapshots.get(target.canonical);
  if (expected === undefined && seen && seen.sha256 !== currentHash) {
    throw new ToolError('stale', `${target.display} changed since this session last read or wrote it. Read it again, then retry.`, {
      currentSha256: currentHash ?? null,
    });
  }
}

/**
 * Writes atomically (keeping mode and, where allowed, owner) and returns the new content's
 * sha256, hashed on this thread while the write and fsync run on the I/O threads. A
 * changed .gitignore or .peonignore takes effect for the rest of the session.
 */
export async function commitFile(target: ResolvedPath, data: Uint8Array | readonly Uint8Array[], current: CurrentFile | undefined): Promise<string> {
  const writing = atomicWrite(target.canonical, data, current?.mode, current?.owner);
  writing.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
  const hash = sha256(data);
  try {
    await writing;
  } catch (error) {
    throw fsError(error, target.display);
  }
  forgetRulesIfChanged(target);
  return hash;
}

/** A whole new content for a file (write, or a person's edited proposal): folders made, committed, and recorded as this session's. */
export async function writeWhole(target: ResolvedPath, bytes: Buffer, current: CurrentFile | undefined, ctx: ToolContext): Promise<string> {
  try {
    await fs.mkdir(path.dirname(target.canonical), { recursive: true });
  } catch (error) {
    throw fsError(error, target.display);
  }
  const hash = await commitFile(target, bytes, current);
  ctx.snapshots.record(target.canonical, { sha256: hash, size: bytes.length });
  return hash;
}

export function forgetRulesIfChanged(target: ResolvedPath): void {
  if ((IGNORE_FILES as readonly string[]).includes(path.basename(target.canonical))) target.folder?.ignore.clear();
}
