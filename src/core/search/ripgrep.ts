// Finding ripgrep (DESIGN.md §4, grep) and running it: spawned directly (no shell), its
// output read as it arrives, and killed as soon as the caller has enough or is cancelled.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isExecutableFile } from '../process/findExecutable';
import { ToolError } from '../tools/toolError';

export interface LocateOptions {
  /** Candidates shipped with the extension, e.g. `<extensionRoot>/dist/bin/rg`, tried first. */
  readonly bundled?: readonly string[];
  /** VS Code's `vscode.env.appRoot`: its own copy of ripgrep. */
  readonly appRoot?: string;
  /** For PATH (and PATHEXT on Windows). */
  readonly env?: NodeJS.ProcessEnv;
  /** Where node_modules resolution starts; defaults to this module's location. */
  readonly resolveFrom?: string;
}

const EXE = process.platform === 'win32' ? 'rg.exe' : 'rg';

/** The platform package `@vscode/ripgrep` ≥ 1.18 installs (`@vscode/ripgrep-linux-x64`, …). */
function fromNodeModules(resolveFrom: string): string | undefined {
  try {
    const require = createRequire(resolveFrom);
    const manifest = require.resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/package.json`);
    return path.join(path.dirname(manifest), 'bin', EXE);
  } catch {
    return undefined;
  }
}

function onPath(env: NodeJS.ProcessEnv): string[] {
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter((d) => d !== '');
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE').split(';').filter(Boolean) : [''];
  return dirs.flatMap((dir) => exts.map((ext) => path.join(dir, process.platform === 'win32' ? `rg${ext.toLowerCase()}` : 'rg')));
}

/**
 * The first executable ripgrep of: the bundled candidates; the @vscode/ripgrep platform
 * package in node_modules; VS Code's own copy under appRoot (both known layouts); `rg` on PATH.
 */
export function locateRipgrep(options: LocateOptions = {}): string | undefined {
  const resolveFrom = options.resolveFrom ?? (typeof __filename === 'string' ? __filename : path.join(process.cwd(), 'index.js'));
  const appRoot = options.appRoot;
  const candidates = [
    ...(options.bundled ?? []),
    fromNodeModules(resolveFrom),
    ...(appRoot
      ? [
          path.join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', EXE),
          path.join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', EXE),
        ]
      : []),
    ...onPath(options.env ?? process.env),
  ];
  return candidates.find((candidate): candidate is string => candidate !== undefined && isExecutableFile(candidate));
}

/**
 * Arguments that make ripgrep's file set Peon's: hidden files included, `.git` skipped,
 * .gitignore honoured whether or not the folder is a git repository, and nothing read
 * that Peon's own ignore rules do not read (config files, .ignore/.rgignore, the user's
 * global excludes, ignore files above the searched directory). The caller post-filters
 * with IgnoreRules, which also applies the rules above the directory and .peonignore.
 * `globs` come before `!.git`: ripgrep lets later globs win.
 */
export function ripgrepFileArgs(globs: readonly string[] = []): string[] {
  return [
    '--no-config',
    '--hidden',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-ignore-parent',
    '--no-require-git',
    ...globs.flatMap((glob) => ['--glob', glob]),
    '--glob',
    '!.git',
  ];
}

export interface RipgrepExit {
  readonly code: number | null;
  readonly stderr: string;
  /** Killed by us before it finished on its own. */
  readonly stoppedEarly: boolean;
}

const MAX_STDERR = 16_384;

/** One ripgrep process. Read `records()`; breaking out of it (or aborting) kills rg. */
export class RipgrepProcess {
  private readonly child: ChildProcessByStdio<null, Readable, Readable>;
  private stderr = '';
  private killed = false;
  private spawnError: Error | undefined;
  private readonly closed: Promise<number | null>;

  constructor(
    rg: string,
    args: readonly string[],
    cwd: string,
    private readonly signal: AbortSignal,
  ) {
    const env = { ...process.env };
    delete env.RIPGREP_CONFIG_PATH;
    this.child = spawn(rg, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => {
      if (this.stderr.length < MAX_STDERR) this.stderr += text.slice(0, MAX_STDERR - this.stderr.length);
    });
    this.closed = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.spawnError = error;
        resolve(null);
      });
      this.child.once('close', (code) => resolve(code));
    });
    signal.addEventListener('abort', this.stop, { once: true });
    if (signal.aborted) this.stop();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Kills ripgrep (if it is still running). */
  readonly stop = (): void => {
    if (this.child.exitCode === null && this.child.signalCode === null && !this.killed) {
      this.killed = true;
      this.child.kill('SIGKILL');
    }
  };

  /** Output split at `delimiter` (without it). Returning early kills ripgrep and waits for it. */
  async *records(delimiter: number): AsyncGenerator<Buffer, void, undefined> {
    let pending: Buffer[] = [];
    let finished = false;
    try {
      for await (const chunk of this.child.stdout as AsyncIterable<Buffer>) {
        let start = 0;
        for (let end = chunk.indexOf(delimiter); end !== -1; end = chunk.indexOf(delimiter, start)) {
          const piece = chunk.subarray(start, end);
          start = end + 1;
          if (pending.length > 0) {
            pending.push(piece);
            const record = Buffer.concat(pending);
            pending = [];
            yield record;
          } else {
            yield piece;
          }
        }
        if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
      }
      finished = true;
      if (pending.length > 0) yield Buffer.concat(pending);
    } finally {
      if (!finished) this.stop();
      await this.closed;
      this.signal.removeEventListener('abort', this.stop);
    }
    this.signal.throwIfAborted();
  }

  /** How ripgrep ended; call after `records()` is done. Throws when it could not start. */
  async exit(): Promise<RipgrepExit> {
    const code = await this.closed;
    this.signal.throwIfAborted();
    if (this.spawnError) {
      throw new ToolError('unavailable', `ripgrep could not be started (${this.spawnError.message}).`);
    }
    return { code, stderr: this.stderr.trim(), stoppedEarly: this.killed };
  }
}
