// agent_claude, agent_codex, agent_pi (DESIGN.md §4): a fixed argument vector from user
// or machine settings, the executable resolved through PATH to an absolute path when the
// call is assessed (what the card shows is what runs), the prompt appended as exactly
// one argument, no shell; process handling is the runner's.
import * as z from 'zod';
import fs from 'node:fs';
import { findExecutable } from '../process/findExecutable';
import { isWithin } from '../workspace/workspace';
import { killGroupAvailable } from '../process/killGroup';
import { runProcess } from '../process/runProcess';
import { killOnly } from '../sandbox/killOnly';
import { SETTINGS, type SettingKey } from '../settings';
import type { AnyTool } from './contract';
import { defineTool } from './defineTool';
import description from './agent.md';
import { effectiveTimeout, processResult } from './processResult';
import { fsError, ToolError } from './toolError';

const DEFAULT_TIMEOUT_SECONDS = 300;

/** Device, inode, size and modification time: a file replaced in place is another file. */
function fileIdentity(file: string): string {
  const s = fs.statSync(file, { bigint: true });
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}
const CARD_PROMPT_CHARS = 4000;

export const DELEGATE_WARNING =
  'The child agent may read, write, run commands, use your credentials and call its own model, on its own, in this workspace.';

interface AgentSpec {
  readonly tool: string;
  readonly setting: Extract<SettingKey, `peon.agents.${string}.command`>;
  readonly install: string;
  /** Which sandbox of its own the agent's argv turns on (the card says it), from the argv that runs. */
  readonly ownSandbox: (argv: readonly string[]) => string;
}

const AGENTS: readonly AgentSpec[] = [
  {
    tool: 'agent_claude',
    setting: 'peon.agents.claude.command',
    install: 'npm install -g @anthropic-ai/claude-code',
    ownSandbox: (argv) => (argv.some((a) => /"sandbox"\s*:\s*\{[^}]*"enabled"\s*:\s*true/.test(a)) ? "Claude Code's own sandbox is on for its commands" : "Claude Code's own sandbox is not turned on by its arguments"),
  },
  {
    tool: 'agent_codex',
    setting: 'peon.agents.codex.command',
    install: 'npm install -g @openai/codex',
    ownSandbox: (argv) => {
      const i = argv.findIndex((a) => a === '--sandbox' || a === '-s');
      const mode = i === -1 ? argv.find((a) => a.startsWith('--sandbox='))?.slice('--sandbox='.length) : argv[i + 1];
      return mode ? `codex's own sandbox: ${mode}` : "codex's own sandbox is not chosen by its arguments (codex decides)";
    },
  },
  { tool: 'agent_pi', setting: 'peon.agents.pi.command', install: 'npm install -g @mariozechner/pi-coding-agent', ownSandbox: () => 'pi has no sandbox of its own' },
];

const input = z.object({
  prompt: z.string().min(1).max(200_000).describe('The task for the agent, passed as one argument. Must not start with "-".'),
  timeout_seconds: z.number().int().min(1).optional().describe(`Seconds it may run (default ${DEFAULT_TIMEOUT_SECONDS}, at most the configured maximum).`),
});

function agentTool(spec: AgentSpec): AnyTool {
  const defaultArgv = SETTINGS[spec.setting].default; // declared once, in the settings table
  return defineTool({
    name: spec.tool,
    description: description.replace('AGENT_NAME', defaultArgv[0]!).replace('ARGV', defaultArgv.join(' ')),
    input,
    risk: 'delegate',
    aliases: { timeout: 'timeout_seconds' },
    async assess(args, ctx) {
      // "-" would be read as an option; pi reads "@file" as a file to attach and send.
      if (/^[-@]/.test(args.prompt)) {
        throw new ToolError('invalid_input', `The prompt starts with "${args.prompt[0]}", which the agent could read as an option or a file to attach. Reword it to start with a word.`);
      }
      const [command, ...fixed] = ctx.settings[spec.setting] ?? defaultArgv;
      const executable = findExecutable(command!, ctx.env);
      if (!executable) {
        throw new ToolError('unavailable', `${command} is not installed or not on PATH. Install it (${spec.install}) or set ${spec.setting} in user settings.`);
      }
      // A program inside the workspace (a .venv/bin or node_modules/.bin on PATH) is the
      // project's, not the user's: the project may not choose what runs as the agent.
      const inside = ctx.workspace.folders.find((f) => isWithin(f.root, executable) || isWithin(f.root, findExecutable(command!, ctx.env, false) ?? executable));
      if (inside) {
        throw new ToolError('permission_denied', `${command} resolves to ${executable}, inside the workspace folder ${inside.name}. Peon runs only an agent installed outside the project; fix PATH or set ${spec.setting} in user settings.`);
      }
      const argv = [executable, ...fixed, args.prompt];
      const root = ctx.workspace.resolve('.');
      const shown = args.prompt.length > CARD_PROMPT_CHARS ? `${args.prompt.slice(0, CARD_PROMPT_CHARS)}… [${args.prompt.length} characters in all]` : args.prompt;
      // Nothing the agent starts outlives it: a PID namespace of its own (DESIGN.md §9).
      const run = await killOnly(executable, [...fixed, args.prompt], ctx.env ?? process.env, ctx.workspace.folders.map((f) => f.root));
      const ends = run.wrapped
        ? 'Runs in a PID namespace of its own: everything it starts ends with it'
        : killGroupAvailable()
          ? `Runs in a cgroup of its own (no PID namespace: ${run.reason}): everything it starts ends with it (if Peon itself is killed, when it next starts a command)`
          : `Not contained (${run.reason}): what it starts in the background may outlive it`;
      return {
        risk: 'delegate',
        writes: true,
        paths: [root],
        summary: { kind: 'delegate', executable, argv: [executable, ...fixed, shown], prompt: shown, workspace: root.canonical, warning: DELEGATE_WARNING, containment: `${ends}; ${spec.ownSandbox(fixed)}.` },
        prepared: { argv, run: { file: run.file, args: run.args, wrapped: run.wrapped }, identity: fileIdentity(executable) },
      };
    },
    async execute(args, ctx, assessment) {
      const { argv, run, identity } = assessment.prepared as { argv: string[]; run: { file: string; args: string[]; wrapped: boolean }; identity: string };
      const [executable] = argv;
      // The program approved is the program run: PATH, or the file itself, may have changed meanwhile.
      const [command] = ctx.settings[spec.setting] ?? defaultArgv;
      if (findExecutable(command!, ctx.env) !== executable || fileIdentity(executable!) !== identity) {
        throw new ToolError('stale', `${command} now resolves to a different program than the one approved. Nothing was run; retry to see the new one.`);
      }
      const timeout = effectiveTimeout(args.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS, ctx.settings['peon.bash.maxTimeoutSeconds'] ?? 600);
      try {
        const result = await runProcess({
          file: run.file,
          args: run.args,
          cwd: assessment.paths[0]!.canonical,
          ...(ctx.env ? { env: ctx.env } : {}),
          timeoutMs: timeout.seconds * 1000,
          signal: ctx.signal,
          maxOutputBytes: ctx.limits.maxOutputChars,
          killGroup: !run.wrapped,
          ...(ctx.onProgress ? { onOutput: ctx.onProgress } : {}),
        });
        return processResult(result, timeout.seconds, timeout.notes);
      } catch (error) {
        throw fsError(error, executable!);
      }
    },
  });
}

export const AGENT_TOOLS: readonly AnyTool[] = AGENTS.map(agentTool);
