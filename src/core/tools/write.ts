import * as z from 'zod';
import type { ResolvedPath } from '../workspace/workspace';
import type { ToolContext } from './contract';
import { defineTool } from './defineTool';
import { fileChange, isSensitive, PROPOSAL_MAX_BYTES } from './fileAssessment';
import { fileDiff } from './fileDiff';
import { checkFresh, currentFile, sha256, writeWhole, type CurrentFile } from './fileState';
import { ToolError } from './toolError';
import description from './write.md';

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

/** The checks a write must pass against the file as it is: run before asking (not for a sensitive path), and again before writing. */
function checkWrite(args: { mode?: 'create' | 'replace' | undefined; expected_sha256?: string | undefined }, target: ResolvedPath, current: CurrentFile | undefined, currentHash: string | undefined, ctx: ToolContext): void {
  if (args.mode === 'create' && current) {
    throw new ToolError('already_exists', `${target.display} already exists. Use mode "replace" (after reading it), or edit.`);
  }
  if (args.mode === 'replace' && !current) throw new ToolError('not_found', `${target.display} does not exist; use mode "create".`);
  checkFresh(target, currentHash, ctx, args.expected_sha256);
}

export const writeTool = defineTool({
  name: 'write',
  description,
  input,
  risk: 'filesystem',
  aliases: { filePath: 'path', file_path: 'path' },
  async assess(args, ctx) {
    const target = ctx.workspace.resolve(args.path);
    const sensitive = isSensitive(target);
    // What a sensitive file is (or whether it exists) is the person's to see, on the card, and nobody's before.
    const current = await currentFile(target).catch((error: unknown) => {
      if (sensitive) return undefined;
      throw error;
    });
    const currentHash = current ? sha256(current.bytes) : undefined;
    if (!sensitive) checkWrite(args, target, current, currentHash, ctx); // a call bound to fail is not put to the user
    const diff = fileDiff(target.relative ?? target.display, current?.bytes.toString('utf8'), args.content);
    const proposal = Buffer.byteLength(args.content) <= PROPOSAL_MAX_BYTES ? { path: target, content: args.content, currentSha256: currentHash } : undefined;
    return fileChange(target, current ? 'overwrite' : 'create', diff, { sha256: currentHash }, target, proposal);
  },
  async execute(args, ctx, assessment) {
    const target = assessment.paths[0]!;
    const current = await currentFile(target);
    const currentHash = current ? sha256(current.bytes) : undefined;
    checkWrite(args, target, current, currentHash, ctx);
    // What the card showed was computed from this hash; anything else is not what was approved.
    if ((assessment.prepared as { sha256?: string }).sha256 !== currentHash) {
      throw new ToolError('stale', `${target.display} changed while the write waited for approval. Read it again, then retry.`);
    }
    const bytes = Buffer.from(args.content, 'utf8');
    const hash = await writeWhole(target, bytes, current, ctx);
    const verb = current ? 'Overwrote' : 'Created';
    return {
      output: `${verb} ${target.display} (${bytes.length} bytes, sha256 ${hash}).`,
      data: { path: target.display, sha256: hash, bytes: bytes.length, created: !current },
    };
  },
});
