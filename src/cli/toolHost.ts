// What `peon tool` and `peon tools` run on: one workspace, one session of tool calls,
// cancelled by SIGINT/SIGTERM through the same AbortSignal the Stop button uses.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { DEFAULT_LIMITS } from '../core/tools/contract';
import type { CommandJudge } from '../core/permissions/judgeModel';
import { permissionConfig } from '../core/permissions/rules';
import type { SettingValues } from '../core/settings';
import { locateRipgrep } from '../core/search/ripgrep';
import { builtinRegistry } from '../core/tools/builtins';
import { ToolSession, type Approver } from '../core/tools/session';
import { FileSnapshots } from '../core/workspace/snapshots';
import { Trash } from '../core/workspace/trash';
import { Workspace } from '../core/workspace/workspace';
import { UsageError } from './args';
import { loadSettings, type LoadedSettings } from './settingsFiles';

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
  readonly session: ToolSession;
  /** Aborted by SIGINT/SIGTERM/SIGHUP: the same signal cancels a model turn. */
  readonly signal: AbortSignal;
  readonly workspace: Workspace;
  readonly settings: LoadedSettings;
  readonly warnings: readonly string[];
  /** Stops listening for signals. */
  close(): void;
}

export interface ToolHostOptions {
  readonly workspace: string | undefined;
  readonly config: string | undefined;
  readonly approve: string | undefined;
  /** `peon run`: the judge model for peon.permission.judge, made once settings are known. */
  readonly judge?: (settings: SettingValues, signal: AbortSignal) => CommandJudge | undefined;
}

export function openToolHost(options: ToolHostOptions): ToolHost {
  const dir = path.resolve(options.workspace ?? process.cwd());
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--workspace ${dir} is not a folder.`);
  const approver = approverFor(options.approve);
  const settings = loadSettings(options.config, dir);
  const permissions = permissionConfig(settings.layers);
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => controller.abort(new Error(`${signal} received`));
  // A closed terminal (SIGHUP) cancels too; a killed CLI takes its commands with it (runProcess).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  const workspace = new Workspace([{ path: dir }]);
  const session = new ToolSession(
    builtinRegistry(),
    {
      signal: controller.signal,
      workspace,
      // A safety net above every tool's own deadline (commands have theirs, from settings).
      timeoutMs: Math.max(10 * 60, (settings.values['peon.bash.maxTimeoutSeconds'] ?? 600) + 60) * 1000,
      limits: DEFAULT_LIMITS,
      snapshots: new FileSnapshots(),
      trash: new Trash(path.join(stateDir(), 'trash', `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`)),
      agent: 'cli',
      // dist/bin/rg beside dist/cli.js first, then node_modules, then PATH.
      ripgrep: locateRipgrep({ bundled: [path.join(__dirname, 'bin', 'rg')] }),
      settings: settings.values,
    },
    approver,
    permissions,
    undefined,
    settings.values['peon.permission.judge'] ? options.judge?.(settings.values, controller.signal) : undefined,
  );
  return {
    session,
    signal: controller.signal,
    workspace,
    settings,
    warnings: [...settings.warnings, ...permissions.warnings],
    close() {
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, onSignal);
    },
  };
}
