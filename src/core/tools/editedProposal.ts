// A file change the person edited before approving it (DESIGN.md §7, "Open diff"): their
// version is written instead of the model's, with the same care (the file must still be
// what the proposal was computed from; atomic write; mode kept), and the model is told.
import type { Proposal, ToolContext, ToolResult } from './contract';
import { fileDiff } from './fileDiff';
import { currentFile, sha256, writeWhole } from './fileState';
import { ToolError } from './toolError';

export async function commitEditedProposal(proposal: Proposal, edited: string, ctx: ToolContext): Promise<ToolResult> {
  const target = proposal.path;
  const current = await currentFile(target);
  if ((current ? sha256(current.bytes) : undefined) !== proposal.currentSha256) {
    throw new ToolError('stale', `${target.display} changed while the change waited for approval. Nothing was written; read it again, then retry.`);
  }
  const bytes = Buffer.from(edited, 'utf8');
  const hash = await writeWhole(target, bytes, current, ctx);
  return {
    output: `The user edited your proposed change to ${target.display} before approving it, so the file holds their version, not yours (${bytes.length} bytes, sha256 ${hash}). Read it before changing it again.`,
    data: { path: target.display, sha256: hash, bytes: bytes.length, editedByUser: true },
    diff: fileDiff(target.relative ?? target.display, current?.bytes.toString('utf8'), edited),
  };
}
