// The process runner (DESIGN.md §4 "Process groups"): every command in a new process
// group, stdin /dev/null, a non-interactive environment; cancel = TERM to the group, up
// to 2 s, then KILL; deadline = KILL at once; after the leader exits, output pipes drain
// for a bounded moment and every remaining descendant is killed, including those that
// left the group (each run's processes carry a unique environment marker, and the
// process tree is sampled while the command runs).
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { BoundedOutput, type OutputSummary } from './boundedOutput';
import { KillGroup } from './killGroup';
import { ProcessTree } from './processTree';
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
  /**
   * The program is bubblewrap around the command: Stop's TERM goes to the command inside
   * (bubblewrap's own death would kill it at once), the KILL after the grace to bubblewrap,
   * whose PID namespace then ends everything.
   */
  readonly wrapped?: boolean;
  /**
   * Not in a PID namespace (bubblewrap could not run): as root on cgroup v2 the command runs
   * in a kill group of its own (killGroup.ts), which ends also what left its session.
   */
  readonly killGroup?: boolean;
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
    const group = options.killGroup ? KillGroup.open() : undefined;
    const tree = new ProcessTree(group);
    const run = group ? group.wrap(options.file, options.args) : { file: options.file, args: [...options.args] };
    const started = performance.now();
    const child = spawn(run.file, run.args, {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), ...NON_INTERACTIVE_ENV, ...tree.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // a new session and process group, led by the child
    });
    const output = new BoundedOutput(Math.floor(options.maxOutputBytes / 2), Math.ceil(options.maxOutputBytes / 2));
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    let leader: { exitCode: number | null; signal: NodeJS.Signals | null } | undefined;
    const timers: NodeJS.Timeout[] = [];

    // Each stream is decoded on its own, so a character split around a write to the
    // other stream stays whole; the decoded text goes into the bounded output.
    let openStreams = 2;
    const decoders = [child.stdout, child.stderr].map((stream) => {
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer) => {
        const text = decoder.write(chunk);
        output.push(Buffer.from(text));
        if (options.onOutput && text !== '') options.onOutput(stripTerminalEscapes(text));
      });
      stream.once('end', () => {
        openStreams--;
        if (leader && openStreams === 0) finish();
      });
      stream.on('error', () => undefined); // destroyed after the drain grace: not an error
      return decoder;
    });

    tree.started(child.pid);
    timers.push(
      setTimeout(() => {
        if (leader) return; // it finished; the pipes are only draining
        timedOut = true;
        tree.signal('SIGKILL');
      }, options.timeoutMs),
    );
    const onAbort = (): void => {
      if (settled || cancelled || leader) return;
      // The call's own deadline (a TimeoutError, src/core/deadline.ts) is a deadline: KILL at once.
      const reason: unknown = options.signal.reason;
      if (reason instanceof DOMException && reason.name === 'TimeoutError') {
        timedOut = true;
        tree.signal('SIGKILL');
        return;
      }
      cancelled = true;
      tree.signal('SIGTERM', options.wrapped);
      timers.push(setTimeout(() => tree.signal('SIGKILL'), killGraceMs));
    };
    options.signal.addEventListener('abort', onAbort, { once: true });

    const cleanUp = (): void => {
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
    };

    child.once('error', (error) => {
      tree.release();
      cleanUp();
      reject(error);
    });

    /** After the leader exited and the pipes drained (or the grace ran out): sweep and resolve. */
    function finish(): void {
      if (settled || !leader) return;
      // The sweep: nothing of this command outlives the call. Repeated while it finds
      // anything, since a process may fork while it is being killed.
      tree.sweep();
      cleanUp();
      child.stdout.destroy();
      child.stderr.destroy();
      for (const decoder of decoders) output.push(Buffer.from(decoder.end()));
      const durationMs = Math.round(performance.now() - started);
      resolve({ ...leader, durationMs, timedOut, cancelled, output: output.summary() });
    }

    child.once('exit', (exitCode, signal) => {
      tree.leaderExited();
      leader = { exitCode, signal };
      if (openStreams === 0) finish();
      else timers.push(setTimeout(finish, drainGraceMs)); // a background child may hold the pipes
    });

    if (options.signal.aborted) onAbort();
  });
}
