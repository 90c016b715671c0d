import fs from 'node:fs/promises';
import * as z from 'zod';
import { defineTool } from './defineTool';
import description from './delete.md';
import { fileChange, isSensitive } from './fileAssessment';
import { fileDiff } from './fileDiff';
import { forgetRulesIfChanged, requireRegular } from './fileState';
import { fsError, ToolError } from './toolError';

const input = z.object({
  path: z.string().min(1).describe('The file to delete: relative to the workspace root, absolute, or starting with ~.'),
});

export const deleteTool = defineTool({
  name: 'delete',
  description,
  input,
  risk: 'filesystem',
  aliases: { filePath: 'path', file_path: 'path' },
  async assess({ path }, ctx) {
    // A symlink is judged (and removed) where it stands, not where it points.
    const named = ctx.workspace.resolve(path);
    const target = named.isSymlink ? ctx.workspace.resolveLink(path) : named;
    let before: string | undefined;
    let unreadable: string | undefined;
    if (!named.isSymlink) {
      try {
        const stat = await fs.stat(target.canonical).catch((error: unknown) => {
          throw fsError(error, target.display);
        });
        if (stat.isDirectory()) throw new ToolError('invalid_input', `${target.display} is a directory; delete removes files only.`);
        requireRegular(stat, target);
        if (stat.size <= 512 * 1024) before = await fs.readFile(target.canonical, 'utf8');
      } catch (error) {
        // Whether a sensitive path exists, or what it is, is for the card only: execute checks again after approval.
        if (!isSensitive(named) && !isSensitive(target)) throw error;
        unreadable = error instanceof Error ? error.message : String(error);
      }
    }
    const diff = named.isSymlink
      ? `(removes the symbolic link ${target.display}; its target is untouched)`
      : unreadable !== undefined
        ? `(${unreadable})`
        : before === undefined
          ? '(large file: no inline diff)'
          : fileDiff(target.relative ?? target.display, before, '');
    return fileChange(target, 'delete', diff, undefined, named);
  },
  async execute(_args, ctx, assessment) {
    const target = assessment.paths[0]!;
    try {
      const stat = await fs.lstat(target.canonical);
      if (stat.isDirectory()) throw new ToolError('invalid_input', `${target.display} is a directory; delete removes files only.`);
      if (!stat.isSymbolicLink()) requireRegular(stat, target);
      const entry = stat.isSymbolicLink()
        ? await ctx.trash.keepLink(target.canonical, await fs.readlink(target.canonical))
        : await ctx.trash.keepCopy(target.canonical, target.canonical, stat.size, stat.mode & 0o7777);
      await fs.unlink(target.canonical);
      ctx.snapshots.forget(target.canonical);
      forgetRulesIfChanged(target);
      return {
        output: `Deleted ${target.display}${stat.isSymbolicLink() ? ' (the link only)' : ''}. It is kept in the trash as ${entry.id} and can be restored.`,
        data: { path: target.display, trashId: entry.id, bytes: entry.size, link: stat.isSymbolicLink() },
      };
    } catch (error) {
      throw fsError(error, target.display);
    }
  },
});
