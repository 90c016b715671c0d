import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { atomicWrite } from '../workspace/atomicWrite';
import { identityOf, type FileIdentity } from '../workspace/fileScan';
import type { ResolvedPath } from '../workspace/workspace';
import type { ToolContext } from './contract';
import { defineTool } from './defineTool';
import { fileChange } from './fileAssessment';
import { fileDiff } from './fileDiff';
import { fsError, ToolError } from './toolError';
import description from './write.md';

export const sha256 = (data: Uint8Array | readonly Uint8Array[]): string => {
  const hash = createHash('sha256');
  for (const piece of Array.isArray(data) ? data : [data]) hash.update(piece);
  return hash.digest('hex');
};

/**
 * Writes atomically and returns the new content's sha256, hashed on this thread while
 * the write and fsync run on the I/O threads.
 */
export async function writeAndHash(target: string, data: Uint8Array | readonly Uint8Array[], mode: number | undefined): Promise<string> {
  const writing = atomicWrite(target, data, mode);
  writing.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
  const hash = sha256(data);
  await writing;
  return hash;
}

/** The file as it is now, or undefined when it does not exist. */
export async function currentFile(target: ResolvedPath): Promise<{ bytes: Buffer; mode: number; identity: FileIdentity } | undefined> {
  try {
    const stat = await fs.stat(target.canonical, { bigint: true });
    if (stat.isDirectory()) throw new ToolError('invalid_input', `${target.display} is a directory.`);
    return { bytes: await fs.readFile(target.canonical), mode: Number(stat.mode) & 0o7777, identity: identityOf(stat) };
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

const input = z.object({
  path: z.string().min(1).describe('The file to write: relative to the workspace root, absolute, or starting with ~.'),
  content: z.string().describe('The complete new content of the file.'),
  mode: z.enum(['create', 'replace']).optional().describe('"create": fail if the file exists. "replace": fail if it does not. Omit to create or overwrite.'),
  expected_sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be a 64-character hex sha256')
    .optional()
    .describe('The sha256 the file must have right now (from read); otherwise the write is refused as stale.'),
});

export const writeTool = defineTool({
  name: 'write',
  description,
  input,
  risk: 'filesystem',
  aliases: { filePath: 'path', file_path: 'path' },
  async assess(args, ctx) {
    const target = ctx.workspace.resolve(args.path);
    const current = await currentFile(target);
    const before = current?.bytes.toString('utf8');
    const diff = fileDiff(target.relative ?? target.display, before, args.content);
    return fileChange(target, current ? 'overwrite' : 'create', diff, { sha256: current ? sha256(current.bytes) : undefined });
  },
  async execute(args, ctx, assessment) {
    const target = assessment.paths[0]!;
    const current = await currentFile(target);
    const currentHash = current ? sha256(current.bytes) : undefined;
    if (args.mode === 'create' && current) {
      throw new ToolError('already_exists', `${target.display} already exists. Use mode "replace" (after reading it), or edit.`);
    }
    if (args.mode === 'replace' && !current) throw new ToolError('not_found', `${target.display} does not exist; use mode "create".`);
    checkFresh(target, currentHash, ctx, args.expected_sha256);
    // What the card showed was computed from this hash; anything else is not what was approved.
    if ((assessment.prepared as { sha256?: string }).sha256 !== currentHash) {
      throw new ToolError('stale', `${target.display} changed while the write waited for approval. Read it again, then retry.`);
    }
    const bytes = Buffer.from(args.content, 'utf8');
    let hash: string;
    try {
      await fs.mkdir(path.dirname(target.canonical), { recursive: true });
      hash = await writeAndHash(target.canonical, bytes, current?.mode);
    } catch (error) {
      throw fsError(error, target.display);
    }
    ctx.snapshots.record(target.canonical, { sha256: hash, size: bytes.length });
    const verb = current ? 'Overwrote' : 'Created';
    return {
      output: `${verb} ${target.display} (${bytes.length} bytes, sha256 ${hash}).`,
      data: { path: target.display, sha256: hash, bytes: bytes.length, created: !current },
    };
  },
});
