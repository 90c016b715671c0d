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
import { descendantsOf, pidsInSession, pidsWithEnv, readProc } from './procfs';
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

/** Every run in flight, so a dying host can take its commands with it. */
const active = new Set<(signal: NodeJS.Signals) => void>();
process.once('exit', () => {
  for (const kill of active) kill('SIGKILL');
});

export function runProcess(options: RunOptions): Promise<RunResult> {
  const { drainGraceMs = 250, killGraceMs = 2000 } = options;
  return new Promise((resolve, reject) => {
    const marker = randomBytes(8).toString('hex');
    const started = performance.now();
    const child = spawn(options.file, [...options.args], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), ...NON_INTERACTIVE_ENV, [MARKER]: marker },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // a new session and process group, led by the child
    });
    const leaderPid = child.pid;
    const output = new BoundedOutput(Math.floor(options.maxOutputBytes / 2), Math.ceil(options.maxOutputBytes / 2));
    const known = new Map<number, string>(); // descendants seen while running: pid -> start time
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

    /** The tree under the leader, while the leader lives (afterwards its pid may be someone else's). */
    const sample = (): void => {
      if (leaderPid === undefined || leader) return;
      for (const p of descendantsOf(leaderPid)) known.set(p.pid, p.start);
    };
    /**
     * Signals the group; every process in the leader's session (a child that only changed
     * its group stays in it); every process carrying this run's marker (one that left the
     * session keeps it); and every descendant seen while the command ran.
     */
    const signalAll = (signal: NodeJS.Signals): number => {
      if (leaderPid === undefined) return 0;
      sample();
      const targets = new Set<number>([...pidsWithEnv(MARKER, marker), ...pidsInSession(leaderPid)]);
      for (const [pid, start] of known) if (readProc(pid)?.start === start) targets.add(pid);
      targets.delete(process.pid);
      try {
        process.kill(-leaderPid, signal);
      } catch {
        // the group is empty
      }
      for (const pid of targets) {
        if (readProc(pid)?.pgrp === leaderPid) continue; // signalled once already, with the group
        try {
          process.kill(pid, signal);
        } catch {
          // already gone
        }
      }
      return targets.size;
    };
    active.add(signalAll);

    sample();
    timers.push(setInterval(sample, 200));
    timers.push(
      setTimeout(() => {
        if (leader) return; // it finished; the pipes are only draining
        timedOut = true;
        signalAll('SIGKILL');
      }, options.timeoutMs),
    );
    const onAbort = (): void => {
      if (settled || cancelled || leader) return;
      // The call's own deadline (a TimeoutError, src/core/deadline.ts) is a deadline: KILL at once.
      const reason: unknown = options.signal.reason;
      if (reason instanceof DOMException && reason.name === 'TimeoutError') {
        timedOut = true;
        signalAll('SIGKILL');
        return;
      }
      cancelled = true;
      signalAll('SIGTERM');
      timers.push(setTimeout(() => signalAll('SIGKILL'), killGraceMs));
    };
    options.signal.addEventListener('abort', onAbort, { once: true });

    const cleanUp = (): void => {
      settled = true;
      active.delete(signalAll);
      for (const timer of timers) clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
    };

    child.once('error', (error) => {
      cleanUp();
      reject(error);
    });

    /** After the leader exited and the pipes drained (or the grace ran out): sweep and resolve. */
    function finish(): void {
      if (settled || !leader) return;
      // The sweep: nothing of this command outlives the call. Repeated while it finds
      // anything, since a process may fork while it is being killed.
      for (let pass = 0; pass < 5 && signalAll('SIGKILL') > 0; pass++);
      cleanUp();
      child.stdout.destroy();
      child.stderr.destroy();
      for (const decoder of decoders) output.push(Buffer.from(decoder.end()));
      const durationMs = Math.round(performance.now() - started);
      resolve({ ...leader, durationMs, timedOut, cancelled, output: output.summary() });
    }

    child.once('exit', (exitCode, signal) => {
      sample();
      leader = { exitCode, signal };
      if (openStreams === 0) finish();
      else timers.push(setTimeout(finish, drainGraceMs)); // a background child may hold the pipes
    });

    if (options.signal.aborted) onAbort();
  });
}
