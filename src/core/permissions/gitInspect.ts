// The gate's own look into a repository before a whitelisted git command runs without
// asking (gate review F4, F5). A repository can carry config that makes `git status` or
// `git diff` start programs, and git prints more than the paths on its command line:
// a diff or a log with patches shows whatever files it touches, `git show <blob>` any
// object. So the gate asks git itself, with the same guard and no program of the
// repository's run, which config keys are set, what each revision names, and which
// paths the command would print. Anything it cannot find out in time asks.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { withGitGuard } from '../process/gitGuard';

export interface GitRun {
  readonly code: number | null;
  readonly stdout: string;
}

/** Why the look failed: the command asks, saying so. */
export class GitInspectError extends Error {}

const TIMEOUT_MS = 5000;
const MAX_OUTPUT = 4 * 1024 * 1024;

/** `git args` in `cwd`, guarded, bounded in time and output; rejects with GitInspectError when either runs out. */
export function runGit(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv, input?: string): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: { ...withGitGuard(env), GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (why: string): void => {
      child.kill('SIGKILL');
      reject(new GitInspectError(why));
    };
    const timer = setTimeout(() => fail(`git ${args[0]} took longer than ${TIMEOUT_MS / 1000} s`), TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) fail(`git ${args[0]} listed more than ${MAX_OUTPUT / 1024 / 1024} MiB`);
      else chunks.push(chunk);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new GitInspectError(`git could not be run: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks).toString('utf8') });
    });
    if (input !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(input);
    }
  });
}

/**
 * Config keys that make a read-only git command start a program (or read another work
 * tree): external diff drivers and textconv for diff, log -p, show and blame; clean and
 * smudge filters for status and diff; signature programs for log; core.worktree.
 */
const RUNS_PROGRAMS = '^(diff\\.external|diff\\..+\\.(textconv|command)|filter\\..+\\.(clean|smudge|process)|gpg\\.program|gpg\\..+\\.program|core\\.worktree)$';
/** git-lfs's own filter, as `git lfs install --local` writes it. */
const LFS = new Map([
  ['filter.lfs.clean', 'git-lfs clean -- %f'],
  ['filter.lfs.smudge', 'git-lfs smudge -- %f'],
  ['filter.lfs.process', 'git-lfs filter-process'],
]);

function programKeys(output: string, withScope: boolean): string[] {
  const fields = output.split('\0').filter(Boolean);
  const found: string[] = [];
  for (let i = 0; i < fields.length; i += withScope ? 2 : 1) {
    const scope = withScope ? fields[i]! : 'local';
    const entry = fields[withScope ? i + 1 : i] ?? '';
    const [key = '', value = ''] = entry.split(/\n(.*)/s);
    // Command scope is Peon's guard and the host's own environment; global and system are the user's.
    if (scope !== 'local' && scope !== 'worktree') continue;
    if (LFS.get(key) === value) continue;
    found.push(key);
  }
  return found;
}

/** Submodules' config files (git runs status and diff in them too), a bounded walk of `<gitdir>/modules`. */
function submoduleConfigs(gitDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 6 || found.length >= 64) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isFile() && entry.name === 'config') found.push(full);
      else if (entry.isDirectory() && entry.name !== 'objects' && entry.name !== 'refs' && entry.name !== 'logs') walk(full, depth + 1);
    }
  };
  walk(path.join(gitDir, 'modules'), 0);
  return found;
}

export interface Repository {
  readonly top: string;
  readonly gitDir: string;
}

/** The repository `cwd` is in, as git finds it; undefined when there is none (the command will fail the same way). */
export async function findRepository(cwd: string, env: NodeJS.ProcessEnv): Promise<Repository | undefined> {
  const r = await runGit(cwd, ['rev-parse', '--show-toplevel', '--absolute-git-dir'], env);
  const [top, gitDir] = r.stdout.split('\n');
  return r.code === 0 && top && gitDir ? { top, gitDir } : undefined;
}

/** Why the repository's own config could make git start a program, or undefined. */
export async function configObjection(repo: Repository, cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const own = await runGit(cwd, ['config', '--show-scope', '-z', '--get-regexp', RUNS_PROGRAMS], env);
  const keys = programKeys(own.stdout, true);
  for (const file of submoduleConfigs(repo.gitDir)) {
    const sub = await runGit(cwd, ['config', '--file', file, '--includes', '-z', '--get-regexp', RUNS_PROGRAMS], env);
    keys.push(...programKeys(sub.stdout, false).map((k) => `${k} (in the submodule config ${path.relative(repo.gitDir, file)})`));
  }
  return keys.length > 0 ? `the repository's own git config sets ${[...new Set(keys)].join(', ')}, which can make git run a program or read another work tree` : undefined;
}

/** Remote URLs with a password or token in them: `git remote -v` would print it. */
export async function remoteCredentials(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await runGit(cwd, ['config', '-z', '--get-regexp', '^remote\\..*\\.(push)?url$'], env);
  for (const entry of r.stdout.split('\0').filter(Boolean)) {
    const [key = '', url = ''] = entry.split(/\n(.*)/s);
    const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/@]*)@/i.exec(url)?.[1];
    if (userinfo !== undefined && (userinfo.includes(':') || /^https?:/i.test(url))) return `${key} holds credentials, which git remote -v would print`;
  }
  return undefined;
}

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag' | 'missing';

/** What each revision expression names, peeled through tags (`v1^{}`), asked of git in one call. */
export async function objectTypes(cwd: string, revs: readonly string[], env: NodeJS.ProcessEnv): Promise<ObjectType[]> {
  if (revs.length === 0) return [];
  // One expression a line: a revision with a newline in it names nothing.
  if (revs.some((r) => /[\n\0]/.test(r))) return revs.map(() => 'missing');
  const r = await runGit(cwd, ['cat-file', '--batch-check=%(objecttype)'], env, revs.map((rev) => `${rev}^{}\n`).join(''));
  const lines = r.stdout.split('\n');
  return revs.map((_, i) => {
    const line = lines[i] ?? '';
    return (['commit', 'tree', 'blob', 'tag'] as const).find((t) => line === t) ?? 'missing';
  });
}

/** The paths a listing command prints, NUL- or newline-separated, relative to the repository top. */
export async function listPaths(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string[] | undefined> {
  const r = await runGit(cwd, args, env);
  if (r.code !== 0) return undefined;
  return [...new Set(r.stdout.split(/[\0\n]/).filter(Boolean))];
}
