// A stdio MCP server as a transport for the SDK's Client, spawned by Peon itself (the
// SDK's own cannot end a process group: `npx` grandchildren outlive its close(), SDK
// issue #2023). The server runs in its own session and group with a run marker
// (src/core/process/processTree.ts), so stopping it ends its whole tree; its
// environment is a minimal one plus what its configuration gives, never the host's
// (API keys stay out). Exit of the server closes the transport at once, so pending
// calls fail even while a grandchild holds the pipes open. stderr is kept as a bounded
// tail that every error and the status carry; a non-JSON stdout line is noted there
// and skipped; a message over `maxMessageBytes` closes the transport as `too_large`.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { findExecutable } from '../process/findExecutable';
import { KillGroup } from '../process/killGroup';
import { ProcessTree } from '../process/processTree';
import { stripTerminalEscapes } from '../process/terminalText';
import { killOnly } from '../sandbox/killOnly';

/** What a stdio server inherits from the host (the SDK's list, plus the locale and the temp folder). */
const INHERITED = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TMPDIR'];
const STDERR_KEPT = 64 * 1024;
const KILL_GRACE_MS = 1000;

export interface StdioLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The configuration's env, over the envFile's values. */
  readonly env: Readonly<Record<string, string>>;
  /** Where PATH and the inherited variables come from (the host's environment). */
  readonly hostEnv: NodeJS.ProcessEnv;
  readonly maxMessageBytes: number;
}

/** Why the transport closed: the server exited, sent too much, or was stopped. */
export type CloseReason = { readonly kind: 'exited'; readonly text: string } | { readonly kind: 'too_large'; readonly text: string } | { readonly kind: 'stopped'; readonly text: string };

export function serverEnv(launch: Pick<StdioLaunch, 'env' | 'hostEnv'>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = launch.hostEnv[key];
    if (value !== undefined && !value.startsWith('()')) env[key] = value; // not a shell function export
  }
  return { ...env, ...launch.env };
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcessWithoutNullStreams | undefined;
  private tree = new ProcessTree();
  private stderrText = '';
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private reason: CloseReason | undefined;
  private exited: Promise<void> | undefined;

  constructor(private readonly launch: StdioLaunch) {}

  /** The last lines the server wrote to stderr (at most `maxChars`), escapes removed. */
  stderrTail(maxChars = 4000): string {
    const text = stripTerminalEscapes(this.stderrText).trimEnd();
    if (text.length <= maxChars) return text;
    const cut = text.slice(-maxChars);
    return cut.slice(cut.indexOf('\n') + 1);
  }

  get closeReason(): CloseReason | undefined {
    return this.reason;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const { launch } = this;
    const base = serverEnv(launch);
    // A relative path is the configuration's, from the server's own folder.
    const file = findExecutable(launch.command.includes('/') ? path.resolve(launch.cwd, launch.command) : launch.command, base, false);
    if (!file) throw new Error(`${launch.command} was not found${launch.command.includes('/') ? '' : ' on PATH'}.`);
    // In a PID namespace of its own where bubblewrap runs: nothing it starts outlives it, even when Peon is killed.
    // Else, as root on cgroup v2, in a kill group of its own.
    const wrapped = await killOnly(file, launch.args, base);
    const group = wrapped.wrapped ? undefined : KillGroup.open();
    this.tree = new ProcessTree(group);
    const env = { ...base, ...this.tree.env };
    const run = group ? group.wrap(wrapped.file, wrapped.args) : wrapped;
    const child = spawn(run.file, [...run.args], { cwd: launch.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true, windowsHide: true });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    // A long-lived server's tree is sampled every 2 s (the run marker and its session find the rest).
    this.tree.started(child.pid, 2000);
    child.on('error', (error) => this.onerror?.(error));
    child.stdin.on('error', () => undefined); // EPIPE after the server died: the exit says why
    child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderrText = (this.stderrText + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    child.once('exit', (code, signal) => {
      this.tree.leaderExited();
      this.tree.sweep(); // what it left behind ends with it
      this.closed(this.reason ?? { kind: 'exited', text: signal ? `the server was killed by ${signal}` : `the server exited with code ${code}` });
    });
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      // A line within one chunk (the usual case) is decoded where it lies, not copied first.
      const line = this.pending.length === 0 ? chunk.toString('utf8', start, nl) : Buffer.concat([...this.pending, chunk.subarray(start, nl)]).toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
      this.line(line);
      if (this.reason) return;
    }
    const rest = chunk.subarray(start);
    this.pendingBytes += rest.length;
    if (this.pendingBytes > this.launch.maxMessageBytes) {
      this.pending = [];
      this.stop({ kind: 'too_large', text: `the server sent a message over ${Math.round(this.launch.maxMessageBytes / 1048576)} MB (peon.mcp.maxMessageMB)` });
      return;
    }
    if (rest.length > 0) this.pending.push(rest);
  }

  private line(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.charCodeAt(0) !== 123 && line.trim() === '') return; // a message starts with {; anything else may be blank
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch {
      // A banner or a stray log line on stdout: noted where the person will look, and skipped.
      this.stderrText = `${this.stderrText}[peon] stdout line that is not JSON-RPC, ignored: ${line.slice(0, 200)}\n`.slice(-STDERR_KEPT);
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.reason) return Promise.reject(new Error(this.reason?.text ?? 'the server is not running'));
    // As the SDK's own: done once written to the pipe's buffer (or drained), not after a round trip.
    if (child.stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return new Promise((resolve) => child.stdin.once('drain', resolve));
  }

  close(): Promise<void> {
    return this.stop({ kind: 'stopped', text: 'the server was stopped' });
  }

  /** Ends the server's tree: stdin closed and TERM to all of it, KILL after a grace; resolves once the leader is gone. */
  private async stop(reason: CloseReason): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.tree.sweep();
      this.closed(this.reason ?? reason);
      return;
    }
    this.reason ??= reason;
    child.stdin.end();
    this.tree.signal('SIGTERM');
    const grace = setTimeout(() => this.tree.signal('SIGKILL'), KILL_GRACE_MS);
    await this.exited;
    clearTimeout(grace);
  }

  private closed(reason: CloseReason): void {
    if (this.reason && this.reason !== reason && this.onclose === undefined) return;
    this.reason ??= reason;
    const onclose = this.onclose;
    this.onclose = undefined;
    onclose?.();
  }
}
