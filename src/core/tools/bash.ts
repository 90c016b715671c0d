import fs from 'node:fs';
import * as z from 'zod';
import { withGitGuard } from '../process/gitGuard';
import { runProcess } from '../process/runProcess';
import { SandboxUnavailableError, type PreparedCommand } from '../sandbox/commandSandbox';
import { unsandboxedView } from '../sandbox/describe';
import { defineTool } from './defineTool';
import description from './bash.md';
import { effectiveTimeout, processResult } from './processResult';
import { fsError, ToolError } from './toolError';

const input = z.object({
  command: z.string().min(1).max(100_000).describe('The command line, run by /bin/bash -lc.'),
  timeout_seconds: z.number().int().min(1).optional().describe('Seconds it may run; at most the configured maximum (default 40).'),
  workdir: z.string().optional().describe('A folder inside the workspace to run in; default: the workspace root.'),
  description: z.string().max(300).optional().describe('What the command does and why, in a few words, for the user.'),
  outside_sandbox: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .optional()
    .describe('Only after this command failed because of the sandbox: why it must run outside it. The user is asked on a card of its own, every time.'),
});

/** What bubblewrap prints when it cannot set the sandbox up (the command never started). */
const BWRAP_FAILED = /^bwrap: /;

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
    let run: PreparedCommand;
    try {
      run = ctx.sandbox
        ? await ctx.sandbox.prepare(args.command, dir.canonical, args.outside_sandbox)
        : { file: '/bin/bash', args: ['-lc', args.command], env: ctx.env ?? process.env, view: unsandboxedView('no sandbox was set up for this call'), sandboxed: false };
    } catch (error) {
      if (error instanceof SandboxUnavailableError) throw new ToolError('unavailable', error.message);
      throw error;
    }
    return {
      risk: 'process',
      writes: false,
      paths: [dir],
      summary: { kind: 'command', command: args.command, cwd: dir.display, ...(args.description ? { description: args.description } : {}), sandbox: run.view },
      prepared: run,
    };
  },
  async execute(args, ctx, assessment) {
    const dir = assessment.paths[0]!;
    // Built again right before it runs: what is protected and covered is what is there now.
    let ready: Awaited<ReturnType<NonNullable<typeof ctx.sandbox>['beforeCommand']>>;
    try {
      ready = (await ctx.sandbox?.beforeCommand(assessment.prepared as PreparedCommand)) ?? { prepared: assessment.prepared as PreparedCommand };
    } catch (error) {
      if (error instanceof SandboxUnavailableError) throw new ToolError('unavailable', error.message);
      throw error;
    }
    const run = ready.prepared;
    const max = ctx.settings['peon.bash.maxTimeoutSeconds'] ?? 600;
    // Only a timeout the call asked for is reported as lowered; the default is simply capped.
    const timeout = args.timeout_seconds === undefined
      ? { seconds: Math.min(ctx.settings['peon.bash.defaultTimeoutSeconds'] ?? 40, max), notes: [] }
      : effectiveTimeout(args.timeout_seconds, max);
    try {
      const result = await runProcess({
        file: run.file,
        args: run.args,
        cwd: dir.canonical,
        env: withGitGuard(run.env),
        timeoutMs: timeout.seconds * 1000,
        signal: ctx.signal,
        maxOutputBytes: ctx.limits.maxOutputChars,
        wrapped: run.sandboxed,
        killGroup: !run.sandboxed,
        ...(ctx.onProgress ? { onOutput: ctx.onProgress } : {}),
      });
      const notes = [...timeout.notes, ...((await ctx.sandbox?.afterCommand(ready.guard)) ?? [])];
      // The sandbox could not be set up: nothing ran, and the next command probes again.
      if (run.sandboxed && result.exitCode === 1 && BWRAP_FAILED.test(result.output.text)) {
        ctx.sandbox?.reprobe();
        notes.push('[the sandbox failed to start, so the command did not run; the next command checks the sandbox again]');
      }
      const shown = processResult(result, timeout.seconds, notes);
      return { ...shown, data: { ...shown.data, timeoutLowered: timeout.notes.length > 0, sandbox: run.view.state } };
    } catch (error) {
      throw fsError(error, run.file);
    }
  },
});
