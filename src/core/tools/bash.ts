import fs from 'node:fs';
import * as z from 'zod';
import { withGitGuard } from '../process/gitGuard';
import { runProcess } from '../process/runProcess';
import { defineTool } from './defineTool';
import description from './bash.md';
import { effectiveTimeout, processResult } from './processResult';
import { fsError, ToolError } from './toolError';

const input = z.object({
  command: z.string().min(1).max(100_000).describe('The command line, run by /bin/bash -lc.'),
  timeout_seconds: z.number().int().min(1).optional().describe('Seconds it may run; at most the configured maximum (default 40).'),
  workdir: z.string().optional().describe('A folder inside the workspace to run in; default: the workspace root.'),
  description: z.string().max(300).optional().describe('What the command does and why, in a few words, for the user.'),
});

export const bashTool = defineTool({
  name: 'bash',
  description,
  input,
  risk: 'process',
  aliases: { timeout: 'timeout_seconds', cwd: 'workdir' },
  async assess(args, ctx) {
    const dir = ctx.workspace.resolve(args.workdir ?? '.');
    if (!dir.inside) throw new ToolError('outside_workspace', `workdir ${dir.display} is outside the workspace; commands run inside it.`);
    if (!fs.statSync(dir.canonical, { throwIfNoEntry: false })?.isDirectory()) {
      throw new ToolError('not_found', `workdir ${dir.display} is not a folder in the workspace.`);
    }
    return {
      risk: 'process',
      writes: false,
      paths: [dir],
      summary: { kind: 'command', command: args.command, cwd: dir.display, ...(args.description ? { description: args.description } : {}) },
    };
  },
  async execute(args, ctx, assessment) {
    const dir = assessment.paths[0]!;
    const max = ctx.settings['peon.bash.maxTimeoutSeconds'] ?? 600;
    // Only a timeout the call asked for is reported as lowered; the default is simply capped.
    const timeout = args.timeout_seconds === undefined
      ? { seconds: Math.min(ctx.settings['peon.bash.defaultTimeoutSeconds'] ?? 40, max), notes: [] }
      : effectiveTimeout(args.timeout_seconds, max);
    try {
      const result = await runProcess({
        file: '/bin/bash',
        args: ['-lc', args.command],
        cwd: dir.canonical,
        env: withGitGuard(ctx.env ?? process.env),
        timeoutMs: timeout.seconds * 1000,
        signal: ctx.signal,
        maxOutputBytes: ctx.limits.maxOutputChars,
        ...(ctx.onProgress ? { onOutput: ctx.onProgress } : {}),
      });
      const shown = processResult(result, timeout.seconds, timeout.notes);
      return { ...shown, data: { ...shown.data, timeoutLowered: timeout.notes.length > 0 } };
    } catch (error) {
      throw fsError(error, '/bin/bash');
    }
  },
});
