// The built `peon` command spawned as a black box (DESIGN.md §8): one place for how the
// unit tests run it, with its own state folder and, where a test gives one, its own HOME.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './tools/toolTestContext';

export const CLI = path.resolve('dist/cli.js');

export interface PeonRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly lines: string[];
}

export interface PeonOptions {
  readonly input?: string;
  readonly uid?: number;
  readonly cwd?: string;
  readonly cli?: string;
  /** Added to (or, as undefined, removed from) this process's environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export function peon(args: readonly string[], options: PeonOptions = {}): PeonRun {
  const r = spawnSync(process.execPath, [options.cli ?? CLI, ...args], {
    encoding: 'utf8',
    input: options.input,
    cwd: options.cwd,
    env: { ...process.env, PEON_STATE_DIR: tempDir('peon-state-'), ...options.env },
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.split('\n').filter(Boolean) };
}

export interface ToolOutcome {
  readonly tool: string;
  readonly ok: boolean;
  readonly output?: string;
  readonly data?: Record<string, unknown>;
  readonly error?: { code: string; message: string; details?: Record<string, unknown> };
  readonly permission?: { decision: string; answer?: string; reasons: string[]; source: string } | null;
}

/** `peon tool NAME --workspace WS --input JSON` with `extra` flags; its one JSON line. */
export function peonTool(name: string, workspace: string, input: unknown, extra: readonly string[] = [], options: PeonOptions = {}): ToolOutcome {
  const r = peon(['tool', name, '--workspace', workspace, '--input', JSON.stringify(input), ...extra], options);
  if (r.lines.length !== 1) throw new Error(`peon tool ${name} printed ${r.lines.length} lines (exit ${r.code}): ${r.stdout}${r.stderr}`);
  return JSON.parse(r.lines[0]!) as ToolOutcome;
}

/** Resolves once `condition` holds (checked every 20 ms): a test waits for the state it needs, never for a fixed time. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether process `pid` has `file` open (Linux /proc). */
export function hasOpen(pid: number, file: string): boolean {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
