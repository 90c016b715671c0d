// Real temp workspaces and a real ToolContext for tool tests: no fs mocks.
import { CommandSandbox, sandboxSettings } from '../../../src/core/sandbox/commandSandbox';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { resolveSettings } from '../../../src/core/settings';
import { DEFAULT_LIMITS, type ToolContext } from '../../../src/core/tools/contract';
import { builtinRegistry } from '../../../src/core/tools/builtins';
import { CallPipeline } from '../../../src/core/conversation/pipeline';
import { type Approver } from '../../../src/core/permissions/approvals';
import { FileSnapshots } from '../../../src/core/workspace/snapshots';
import { Trash } from '../../../src/core/workspace/trash';
import { Workspace } from '../../../src/core/workspace/workspace';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temp directory removed after the test. */
export function tempDir(prefix = 'peon-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return fs.realpathSync(dir);
}

/** Writes `files` (path -> content) under `root`. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const full = path.join(root, name);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
}

export function makeWorkspace(files: Record<string, string | Buffer> = {}): string {
  const root = tempDir('peon-ws-');
  writeFiles(root, files);
  return root;
}

/**
 * A home folder without the machine's shell profile (whose pyenv, say, prints to every
 * login shell that cannot write its cache, as a sandboxed one cannot), keeping the
 * person's git identity: commands in tests print only what they print.
 */
export function quietHome(): string {
  const home = tempDir('peon-home-');
  const gitconfig = path.join(os.homedir(), '.gitconfig');
  if (fs.existsSync(gitconfig)) fs.copyFileSync(gitconfig, path.join(home, '.gitconfig'));
  return home;
}

/** This process's environment with a quiet home. */
export const quietEnv = (): NodeJS.ProcessEnv => ({ ...process.env, HOME: quietHome() });

export function makeContext(root: string | Workspace, overrides: Partial<ToolContext> = {}): ToolContext {
  const workspace = typeof root === 'string' ? new Workspace([{ path: root }]) : root;
  const env = overrides.env ?? quietEnv();
  return {
    signal: new AbortController().signal,
    workspace,
    timeoutMs: 30_000,
    limits: DEFAULT_LIMITS,
    snapshots: new FileSnapshots(),
    trash: new Trash(tempDir('peon-trash-')),
    agent: 'test',
    ripgrep: undefined,
    settings: resolveSettings({ user: {}, workspace: {} }).values,
    // As a conversation gives it: bash runs sandboxed (DESIGN.md §9).
    sandbox: new CommandSandbox({ settings: () => sandboxSettings(overrides.settings ?? {}), folders: workspace.folders.map((f) => f.root), env: overrides.env ?? env }),
    env,
    ...overrides,
  };
}

export const approveAll: Approver = async () => ({ approved: true });
export const denyAll: Approver = async () => ({ approved: false });

/** A session over the built-in tools, answering every `ask` with `approver`. */
export function makeSession(root: string, approver: Approver = approveAll, overrides: Partial<ToolContext> = {}): CallPipeline {
  return new CallPipeline(builtinRegistry(), makeContext(root, overrides), approver);
}
