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
import { systemExecutable } from '../process/findExecutable';
import { withGitGuard } from '../process/gitGuard';

export interface GitRun {
  readonly code: number | null;
  readonly stdout: string;
}

/** Why the look failed: the command asks, saying so. */
export class GitInspectError extends Error {}

const TIMEOUT_MS = 5000;
const MAX_OUTPUT = 4 * 1024 * 1024;

/**
 * `git args` in `cwd`, guarded, bounded in time and output; rejects with GitInspectError
 * when either runs out. `keep`: only the NUL-separated records it accepts are kept (and
 * count towards the bound), for listings of a whole index.
 */
export function runGit(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv, input?: string, keep?: (record: string) => boolean): Promise<GitRun> {
  const git = systemExecutable('git');
  if (!git) return Promise.reject(new GitInspectError('git is not installed in a system folder (/usr/bin, /bin, /usr/local/bin)'));
  return new Promise((resolve, reject) => {
    const child = spawn(git, args, { cwd, env: { ...withGitGuard(env), GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let partial = '';
    const fail = (why: string): void => {
      child.kill('SIGKILL');
      reject(new GitInspectError(why));
    };
    const timer = setTimeout(() => fail(`git ${args[0]} took longer than ${TIMEOUT_MS / 1000} s`), TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      let kept = chunk;
      if (keep) {
        const records = (partial + chunk.toString('utf8')).split('\0');
        partial = records.pop()!;
        kept = Buffer.from(records.filter(keep).map((r) => `${r}\0`).join(''));
      }
      size += kept.length;
      if (size > MAX_OUTPUT) fail(`git ${args[0]} listed more than ${MAX_OUTPUT / 1024 / 1024} MiB`);
      else chunks.push(kept);
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
 * smudge filters for status and diff; signature programs for log; the alternate refs
 * command for `log --alternate-refs`; core.worktree.
 */
const RUNS_PROGRAMS = '^(diff\\.external|diff\\..+\\.(textconv|command)|filter\\..+\\.(clean|smudge|process)|gpg\\.program|gpg\\..+\\.program|gpg\\.format|log\\.showsignature|core\\.worktree|core\\.alternaterefscommand)$';
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

/**
 * The git folders of submodules checked out in the work tree (gitlinks in the index),
 * absorbed or not, and theirs in turn: git status and diff run in every one of them.
 */
async function gitlinkDirs(top: string, env: NodeJS.ProcessEnv, found: string[] = [], depth = 0): Promise<string[]> {
  if (depth > 4 || found.length >= 64) return found;
  const r = await runGit(top, ['ls-files', '--stage', '-z'], env, undefined, (record) => record.startsWith('160000 '));
  for (const record of r.stdout.split('\0').filter(Boolean)) {
    const at = path.join(top, record.slice(record.indexOf('\t') + 1));
    const dotgit = path.join(at, '.git');
    let dir: string | undefined;
    try {
      if (fs.statSync(dotgit).isDirectory()) dir = dotgit;
      else {
        const named = /^gitdir: (.*)$/m.exec(fs.readFileSync(dotgit, 'utf8'))?.[1];
        if (named) dir = path.resolve(at, named.trim());
      }
    } catch {
      // not checked out: git has nothing to run there
    }
    if (dir === undefined || found.includes(dir)) continue;
    found.push(dir);
    await gitlinkDirs(at, env, found, depth + 1);
  }
  return found;
}

export interface Repository {
  readonly top: string;
  readonly gitDir: string;
  /** Where git looks for hooks (core.hooksPath honoured). */
  readonly hooks: string;
}

/** The repository `cwd` is in, as git finds it; undefined when there is none (the command will fail the same way). */
export async function findRepository(cwd: string, env: NodeJS.ProcessEnv): Promise<Repository | undefined> {
  const r = await runGit(cwd, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-path', 'hooks'], env);
  const [top, gitDir, hooks] = r.stdout.split('\n');
  return r.code === 0 && top && gitDir && hooks ? { top, gitDir, hooks: path.resolve(cwd, hooks) } : undefined;
}

/** An index-writing hook a read-only command could set off (GIT_OPTIONAL_LOCKS=0 keeps status from writing; this is the second fence). */
const hookIn = (dir: string): string | undefined => {
  const hook = path.join(dir, 'post-index-change');
  try {
    fs.accessSync(hook, fs.constants.X_OK);
    return hook;
  } catch {
    return undefined;
  }
};

/** Why the repository's own config (or a submodule's) could make git start a program, or undefined. */
export async function configObjection(repo: Repository, cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const own = await runGit(cwd, ['config', '--show-scope', '-z', '--get-regexp', RUNS_PROGRAMS], env);
  const keys = programKeys(own.stdout, true);
  const hook = hookIn(repo.hooks);
  if (hook) keys.push(`a post-index-change hook (${hook})`);
  const submodules = [...submoduleConfigs(repo.gitDir), ...(await gitlinkDirs(repo.top, env)).map((dir) => path.join(dir, 'config'))];
  for (const file of new Set(submodules)) {
    const sub = await runGit(cwd, ['config', '--file', file, '--includes', '-z', '--get-regexp', RUNS_PROGRAMS], env);
    const where = path.relative(repo.top, file).startsWith('..') ? file : path.relative(repo.top, file);
    keys.push(...programKeys(sub.stdout, false).map((k) => `${k} (in the submodule config ${where})`));
    const subHook = hookIn(path.join(path.dirname(file), 'hooks'));
    if (subHook) keys.push(`a post-index-change hook (${subHook})`);
  }
  return keys.length > 0 ? `the repository's own git config sets ${[...new Set(keys)].join(', ')}, which can make git run a program or read another work tree` : undefined;
}

/** Credentials in what `git remote -v` would print (after insteadOf rewriting): a password or token in a URL, a token in its query. */
export async function remoteCredentials(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await runGit(cwd, ['remote', '-v'], env);
  for (const line of r.stdout.split('\n')) {
    const url = line.split(/\s+/)[1] ?? '';
    const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/@]*)@/i.exec(url)?.[1];
    const password = userinfo !== undefined && (userinfo.includes(':') || /^https?:/i.test(url));
    const query = /[?&#][^=&\s]*(token|key|secret|pass|auth|sig)[^=&\s]*=/i.test(url);
    if (password || query) return `the remote ${line.split(/\s+/)[0]} has credentials in its URL, which git remote -v would print`;
  }
  return undefined;
}

/** A config value, as git reads it from every scope; undefined when unset. */
export async function configValue(cwd: string, key: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await runGit(cwd, ['config', '--get', key], env);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag' | 'missing';

/** What each revision expression names, peeled through tags (`v1^{}`) unless it is a `rev:path`, asked of git in one call. */
export async function objectTypes(cwd: string, revs: readonly string[], env: NodeJS.ProcessEnv, peel = true): Promise<ObjectType[]> {
  if (revs.length === 0) return [];
  // One expression a line: a revision with a newline in it names nothing.
  if (revs.some((r) => /[\n\0]/.test(r))) return revs.map(() => 'missing');
  const r = await runGit(cwd, ['cat-file', '--batch-check=%(objecttype)'], env, revs.map((rev) => `${rev}${peel ? '^{}' : ''}\n`).join(''));
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
