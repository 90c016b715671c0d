// The sandbox cases run through the built `peon` command twice (TESTING.md "Sandbox"):
// as root, and as a throwaway ordinary user made here with useradd and removed after.
// Each runner has a temporary HOME (outside /tmp, which a sandboxed command sees as its
// own) holding a fake ~/.ssh key; the CLI is copied where that user can read it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../cliHarness';

export interface Runner {
  readonly name: 'root' | 'user' | 'self';
  readonly uid: number;
  readonly gid: number;
  readonly home: string;
  /** A folder of this runner's, outside the workspace and outside /tmp. */
  readonly outside: string;
  readonly cli: string;
}

export const SECRET_KEY = '-----BEGIN OPENSSH PRIVATE KEY----- peon-test-secret';
export const SECRET_VARS = { GITHUB_TOKEN: 'ghp_peontest', FOO_API_KEY: 'sk-peontest', SSH_AUTH_SOCK: '/run/peon-test-agent.sock', AWS_SECRET_ACCESS_KEY: 'aws-peontest-secret' };

const made: (() => void)[] = [];

/** A folder under /var/tmp (not /tmp: a sandboxed command's /tmp is its own) owned by `uid`. */
export function varTmp(prefix: string, uid: number, gid: number): string {
  const dir = fs.mkdtempSync(path.join('/var/tmp', prefix));
  fs.chownSync(dir, uid, gid);
  fs.chmodSync(dir, 0o755);
  made.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function runnerFor(name: Runner['name'], uid: number, gid: number): Runner {
  const home = varTmp('peon-sbx-home-', uid, gid);
  fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
  fs.writeFileSync(path.join(home, '.ssh', 'id_test'), `${SECRET_KEY}\n`, { mode: 0o600 });
  fs.writeFileSync(path.join(home, '.netrc'), 'machine example.com login me password peon-netrc-secret\n', { mode: 0o600 });
  for (const p of ['.ssh', '.ssh/id_test', '.netrc']) fs.chownSync(path.join(home, p), uid, gid);
  // The bundle and its bash grammar, where this user can read them.
  const bin = varTmp('peon-sbx-cli-', 0, 0);
  fs.copyFileSync(CLI, path.join(bin, 'cli.js'));
  // cli.js requires the page worker's bundle beside it (esbuild.mjs).
  fs.copyFileSync(path.join(path.dirname(CLI), 'markdownWorker.js'), path.join(bin, 'markdownWorker.js'));
  fs.cpSync(path.join(path.dirname(CLI), 'wasm'), path.join(bin, 'wasm'), { recursive: true });
  execFileSync('chmod', ['-R', 'a+rX', bin]);
  return { name, uid, gid, home, outside: varTmp('peon-sbx-outside-', uid, gid), cli: path.join(bin, 'cli.js') };
}

/** Root and a throwaway user when this runs as root; else the current user alone. */
export function makeRunners(): Runner[] {
  const uid = process.getuid!();
  if (uid !== 0) return [runnerFor('self', uid, process.getgid!())];
  const user = `peonsbx${randomBytes(3).toString('hex')}`;
  execFileSync('useradd', ['--no-create-home', '--home-dir', '/nonexistent', '--shell', '/bin/bash', '--user-group', user]);
  made.push(() => execFileSync('userdel', [user]));
  const id = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }));
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }));
  return [runnerFor('root', 0, 0), runnerFor('user', id, gid)];
}

export function cleanUp(): void {
  for (const undo of made.splice(0).reverse()) undo();
}

/** A workspace owned by the runner, with `files`. */
export function workspaceFor(runner: Runner, files: Record<string, string> = {}): string {
  const dir = varTmp('peon-sbx-ws-', runner.uid, runner.gid);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  execFileSync('chown', ['-R', `${runner.uid}:${runner.gid}`, dir]);
  return dir;
}

export interface CliRun {
  readonly child: ChildProcess;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

export interface CliOptions {
  /** User settings (the --config file). */
  readonly config?: Record<string, unknown>;
  /** A program the CLI runs under (bwrap simulating a machine without user namespaces). */
  readonly under?: readonly string[];
  readonly approve?: 'all' | 'none';
  /** More environment for the CLI. */
  readonly env?: Record<string, string>;
}

/** `peon tool <tool> --input <input>` in `workspace`, as `runner`. */
export function runCli(runner: Runner, workspace: string, tool: string, input: unknown, options: CliOptions = {}): CliRun {
  const state = varTmp('peon-sbx-state-', runner.uid, runner.gid);
  const args = [runner.cli, 'tool', tool, '--workspace', workspace, '--approve', options.approve ?? 'all', '--input', JSON.stringify(input)];
  if (options.config) {
    const file = path.join(state, 'config.json');
    fs.writeFileSync(file, JSON.stringify(options.config));
    fs.chownSync(file, runner.uid, runner.gid);
    args.push('--config', file);
  }
  const user = runner.name === 'user' ? ['setpriv', `--reuid=${runner.uid}`, `--regid=${runner.gid}`, '--clear-groups', '--'] : [];
  const argv = [...user, ...(options.under ?? []), process.execPath, ...args];
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: runner.home, USER: runner.name, LANG: 'C.UTF-8', PEON_STATE_DIR: state, ...SECRET_VARS, ...options.env };
  const child = spawn(argv[0]!, argv.slice(1), { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CLI's JSON line, read loosely by the cases
type CliJson = Record<string, any>;

/** The CLI's one JSON line for the call. */
export async function result(run: CliRun): Promise<CliJson> {
  const { stdout, stderr } = await run.done;
  const line = stdout.split('\n').find((l) => l.startsWith('{'));
  if (!line) throw new Error(`no result; stderr: ${stderr}`);
  return JSON.parse(line) as CliJson;
}

/** Two escapes from the call's process group: `env -i setsid` and a double fork with its own session. */
export const escapes = (shell: string): string => `env -i setsid sleep 1000.${shell} & (setsid sh -c "nohup sleep 1001.${shell} >/dev/null 2>&1 &" &)`;
