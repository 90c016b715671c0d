// The process runner (DESIGN.md §4 "Process groups"): every command in a new process
// group, stdin /dev/null, a non-interactive environment; cancel = TERM to the group, up
// to 2 s, then KILL; deadline = KILL at once; after the leader exits, output pipes drain
// for a bounded moment and every remaining descendant is killed, including those that
// left the group (each run's processes carry a unique environment marker, and the
// process tree is sampled while the command runs).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { BoundedOutput, type OutputSummary } from './boundedOutput';
import { descendantsOf, pidsWithEnv, readProc } from './procfs';
import { stripTerminalEscapes } from './terminalText';

/** Tools that would wait for a person get a clear "no" instead of a hang. */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
  EDITOR: 'true',
  VISUAL: 'true',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: '',
  TERM: 'dumb',
  NO_COLOR: '1',
  DEBIAN_FRONTEND: 'noninteractive',
  GIT_ASKPASS: 'true',
  SSH_ASKPASS: 'true',
};

const MARKER = 'PEON_PROCESS_RUN';

export interface RunOptions {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The base environment (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Bytes of output kept: half from the start, half from the end. */
  readonly maxOutputBytes: number;
  /** Live output, decoded and made safe to display, as it arrives. */
  readonly onOutput?: (text: string) => void;
  /** How long pipes may stay open after the leader exits (a background child holding them). */
  readonly drainGraceMs?: number;
  /** How long a cancelled command gets between TERM and KILL. */
  readonly killGraceMs?: number;
}

export interface RunResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly durationMs: number;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly output: OutputSummary;
}

export function runProcess(options: RunOptions): Promise<RunResult> {
  const { drainGraceMs = 250, killGraceMs = 2000 } = options;
  return new Promise((resolve, reject) => {
    const marker = randomBytes(8).toString('hex');
    const started = performance.now();
    const child = spawn(options.file, [...options.args], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), ...NON_INTERACTIVE_ENV, [MARKER]: marker },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // a new process group, led by the child
    });
    const output = new BoundedOutput(Math.floor(options.maxOutputBytes / 2), Math.ceil(options.maxOutputBytes / 2));
    const known = new Map<number, string>(); // descendants seen while running: pid -> start time
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    let openStreams = 2;
    let leader: { exitCode: number | null; signal: NodeJS.Signals | null } | undefined;
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8');
      stream.once('end', () => {
        openStreams--;
        if (leader && openStreams === 0) finish();
      });
      stream.on('data', (chunk: Buffer) => {
        output.push(chunk);
        if (options.onOutput) options.onOutput(stripTerminalEscapes(decoder.write(chunk)));
      });
      stream.on('error', () => undefined); // destroyed after the drain grace: not an error
    }

    const sample = (): void => {
      if (child.pid === undefined) return;
      for (const p of descendantsOf(child.pid)) known.set(p.pid, p.start);
    };
    /** Signals the group, every process carrying this run's marker, and every descendant seen. */
    const signalAll = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      sample();
      const targets = new Set<number>(pidsWithEnv(MARKER, marker));
      for (const [pid, start] of known) if (readProc(pid)?.start === start) targets.add(pid);
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group is empty
      }
      for (const pid of targets) {
        try {
          process.kill(pid, signal);
        } catch {
          // already gone
        }
      }
    };

    const tracker = setInterval(sample, 200);
    timers.push(tracker);
    timers.push(
      setTimeout(() => {
        timedOut = true;
        signalAll('SIGKILL');
      }, options.timeoutMs),
    );
    const onAbort = (): void => {
      if (settled || cancelled) return;
      cancelled = true;
      signalAll('SIGTERM');
      timers.push(setTimeout(() => signalAll('SIGKILL'), killGraceMs));
    };
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.once('error', (error) => {
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });

    /** After the leader exited and the pipes drained (or the grace ran out): sweep and resolve. */
    function finish(): void {
      if (settled || !leader) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      signalAll('SIGKILL'); // the sweep: nothing of this command outlives the call
      const durationMs = Math.round(performance.now() - started);
      resolve({ ...leader, durationMs, timedOut, cancelled, output: output.summary() });
    }

    child.once('exit', (exitCode, signal) => {
      leader = { exitCode, signal };
      if (openStreams === 0) finish();
      else timers.push(setTimeout(finish, drainGraceMs)); // a background child may hold the pipes
    });

    if (options.signal.aborted) onAbort();
  });
}
