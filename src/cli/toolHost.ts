// What `peon tool` and `peon run` run on: one conversation over one workspace, built by
// the runtime (src/core/conversation), cancelled by SIGINT/SIGTERM/SIGHUP through the
// same AbortSignal the Stop button uses. The CLI supplies only its hooks: the --approve
// answer, the terminal for questions, its state folder.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { openConversation, type Conversation, type ConversationHooks } from '../core/conversation/conversation';
import type { Approver } from '../core/permissions/approvals';
import type { SettingValues } from '../core/settings';
import { UsageError } from './args';
import { loadSettings, type LoadedSettings } from './settingsFiles';
import { terminalAsker } from './terminalQuestions';
import { proxyFromEnv } from '../core/web/proxy';
import type { McpServers } from '../core/mcp/mcpServers';
import { cliMcpServers, mcpWarnings } from './mcpHost';

/** Where the CLI keeps state (the trash of deleted files): PEON_STATE_DIR or the XDG state folder. */
export function stateDir(): string {
  return process.env.PEON_STATE_DIR ?? path.join(process.env.XDG_STATE_HOME ?? path.join(os.homedir(), '.local', 'state'), 'peon');
}

export function approverFor(mode: string | undefined): Approver {
  if (mode === undefined || mode === 'none') return async () => ({ approved: false, message: 'Denied: the CLI runs with --approve none.' });
  if (mode === 'all') return async () => ({ approved: true });
  throw new UsageError(`--approve takes "all" or "none", not ${JSON.stringify(mode)}.`);
}

export interface ToolHost {
  readonly conversation: Conversation;
  readonly settings: LoadedSettings;
  readonly warnings: readonly string[];
  /** The configured MCP servers (undefined: none configured). */
  readonly mcp: McpServers | undefined;
  /** Starts the MCP servers that may start; what waits or failed, as stderr lines. */
  startMcp(): Promise<string[]>;
  /** Stops listening for signals and stops the MCP servers. */
  close(): Promise<void>;
}

export interface ToolHostOptions {
  readonly workspace: string | undefined;
  readonly config: string | undefined;
  readonly approve: string | undefined;
  /** `peon tool --batch`: the input is a script, so nobody can answer a question. */
  readonly batch?: boolean;
  /** Settings given on the command line (`peon run --model …`), over the config file's. */
  readonly overrides?: SettingValues;
  /** What the command shows of subagents (`peon run` prints their calls). */
  readonly agentHooks?: Pick<ConversationHooks, 'onAgentEvent' | 'onAgent'>;
}

export function openToolHost(options: ToolHostOptions): ToolHost {
  const dir = path.resolve(options.workspace ?? process.cwd());
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--workspace ${dir} is not a folder.`);
  const approve = approverFor(options.approve);
  const loaded = loadSettings(options.config, dir);
  const settings = { ...loaded, values: { ...loaded.values, ...options.overrides } };
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => controller.abort(new Error(`${signal} received`));
  // A closed terminal (SIGHUP) cancels too; a killed CLI takes its commands with it (runProcess).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  const ask = terminalAsker(options.batch ?? false);
  const run = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const servers = cliMcpServers({ state: stateDir(), root: dir, settings: settings.values, approve, approveAll: options.approve === 'all', ...(ask ? { ask } : {}) });
  const mcp = servers.configured || servers.problems.length > 0 ? servers : undefined;
  const conversation = openConversation({
    agent: 'cli',
    folders: [{ path: dir }],
    settings: settings.values,
    layers: settings.layers,
    trashDir: path.join(stateDir(), 'trash', run),
    // What each step changed (`peon run --json` reports it): one call per process, so a step waits for the first snapshot.
    checkpoints: { dir: path.join(stateDir(), 'checkpoints'), waitForFirstScan: true },
    // Sessions, trash, tokens: out of sight of sandboxed commands.
    privateDirs: [stateDir()],
    // dist/bin/rg beside dist/cli.js first, then node_modules, then PATH.
    ripgrep: { bundled: [path.join(__dirname, 'bin', 'rg')] },
    // HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY, as curl reads them.
    // dist/markdownWorker.js beside dist/cli.js converts pages off the main thread.
    // Each subagent's transcript: <state>/runs/<run>/agents/<name>.jsonl.
    hooks: {
      approve,
      ...(ask ? { ask } : {}),
      web: { proxy: proxyFromEnv(process.env), markdownWorker: path.join(__dirname, 'markdownWorker.js') },
      agentsDir: () => path.join(stateDir(), 'runs', run, 'agents'),
      ...options.agentHooks,
    },
    signal: controller.signal,
    ...(mcp ? { mcp } : {}),
  });
  return {
    conversation,
    settings,
    mcp,
    warnings: [...settings.warnings, ...conversation.warnings],
    async startMcp() {
      if (!mcp) return [];
      await mcp.ready(controller.signal);
      return mcpWarnings(mcp);
    },
    async close() {
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, onSignal);
      await mcp?.dispose();
    },
  };
}
