// Every repository in the workspace, at any depth (DESIGN.md §9): a sandboxed command
// must not change a nested repository's config or hooks either, and a repository it
// makes anywhere (`git init sub`, a `.git` file naming a crafted folder, a bare layout
// of HEAD, objects and refs written as plain files) runs programs the next time git runs
// there — VS Code's git extension opens the repository of any file the person opens.
// The walk is incremental, so it costs one lstat per folder per command once the first
// one is done: a folder is read again only when its ctime changed. ctime, not mtime: an
// entry added, removed or renamed in a folder moves both, but a command can set mtime
// back (`touch -m -d`), and no one but the kernel sets ctime. Every folder is searched,
// node_modules too; only git folders are not. Symlinks are not followed. A folder that
// cannot be read is reported, never skipped in silence (one this user owns, made
// unreadable, is given back its owner's read and search bits first). Past `limit`
// folders the walk gives way to the system's `find`, which has no limit. The walk
// yields to the event loop as it goes: it never holds the extension host for long.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Breather } from '../search/walk';
import { systemExecutable } from '../process/findExecutable';
import { racy } from '../workspace/racy';

interface Folder {
  /** NaN: read too close to a change to be trusted (read again by the next walk). */
  ctimeMs: number;
  readonly subfolders: readonly string[];
  /** A `.git` entry in it. */
  readonly git: boolean;
  /** It is laid out as a bare repository (HEAD, objects/, refs/): git run in it uses it. */
  readonly bare: boolean;
  /** Its folders whose names are not UTF-8 (as decoded): they cannot be walked, and are reported as unsearched. */
  readonly unnamed: readonly string[];
  /** The walk that last reached it (folders no walk reaches are forgotten). */
  walk: number;
}

export interface RepoScanResult {
  /** `.git` entries, and folders laid out as bare repositories, sorted. */
  readonly repos: string[];
  /** Folders that could not be read, with why: a repository there could not be seen. */
  readonly unsearched: string[];
  /** Folders this user owns that a command had made unreadable, given back their read and search bits. */
  readonly reopened: string[];
}

/** How long `find` may take over a very large tree before the search is called incomplete. */
const FIND_TIMEOUT_MS = 120_000;

export class RepoScanIncomplete extends Error {}

/** Whether a repository entry is a bare layout (the folder itself), not a `.git`. */
export const isBareLayout = (entry: string): boolean => !entry.endsWith('/.git');

export class RepoScan {
  private readonly folders = new Map<string, Folder>();
  private walks = 0;

  /** At most this many folders are walked here (a home-sized tree): a larger one is searched by `find`. */
  constructor(private readonly limit = 100_000) {}

  /**
   * The repositories under `roots`. Throws RepoScanIncomplete when they cannot all be
   * looked for. `reopen`: after a command, a folder of this user's it made unreadable is
   * given back its owner's read and search bits (before one, the person's own choice stands).
   */
  async find(roots: readonly string[], options: { reopen?: boolean; signal?: AbortSignal } = {}): Promise<RepoScanResult> {
    const walk = ++this.walks;
    const started = Date.now();
    const repos: string[] = [];
    const unsearched: string[] = [];
    const reopened: string[] = [];
    const stack = [...roots].reverse();
    const breather = new Breather(options.signal);
    let walked = 0;
    while (stack.length > 0) {
      if (walked >= this.limit) {
        this.folders.clear(); // the next walk starts afresh: what this one skipped was never cached
        const all = await findAll(roots);
        return { repos: all.repos, unsearched: [...unsearched, ...all.unsearched], reopened };
      }
      if (breather.due()) await breather.pause();
      const dir = stack.pop()!;
      let folder = this.folders.get(dir);
      if (folder?.walk === walk) continue;
      walked++;
      // One folder at a time, from the top: a folder a command replaced with a link is not looked through.
      let stat: Seen | undefined;
      try {
        stat = seenOf(dir);
      } catch (error) {
        unsearched.push(`${dir} (${code(error)})`);
        continue;
      }
      if (!stat?.isDirectory) continue;
      if (!folder || folder.ctimeMs !== stat.ctimeMs) {
        const read = readFolder(dir, stat, options.reopen ? reopened : undefined);
        if ('error' in read) {
          this.folders.delete(dir);
          unsearched.push(`${dir} (${read.error})`);
          continue;
        }
        // Changed too close to this walk (racy.ts): a change in the same clock tick would leave its ctime as it is, so the next walk reads it again.
        if (racy(read.ctimeMs, started)) read.ctimeMs = Number.NaN;
        this.folders.set(dir, (folder = read));
      }
      folder.walk = walk;
      for (const odd of folder.unnamed) unsearched.push(`${odd} (its name is not valid UTF-8)`);
      if (folder.git) repos.push(`${dir}/.git`);
      if (folder.bare) repos.push(dir);
      for (let i = folder.subfolders.length - 1; i >= 0; i--) stack.push(folder.subfolders[i]!);
    }
    for (const [dir, folder] of this.folders) if (folder.walk !== walk) this.folders.delete(dir);
    return { repos: repos.sort(), unsearched, reopened };
  }
}

/** What the walk needs of a folder's lstat. */
interface Seen {
  readonly isDirectory: boolean;
  readonly ctimeMs: number;
  readonly mode: number;
  readonly uid: number;
}

function seenOf(dir: string): Seen | undefined {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  return stat && { isDirectory: stat.isDirectory(), ctimeMs: stat.ctimeMs, mode: stat.mode, uid: stat.uid };
}

function readFolder(dir: string, stat: Seen, reopened: string[] | undefined): Folder | { error: string } {
  let entries: fs.Dirent<Buffer>[];
  try {
    entries = listRaw(dir);
  } catch (error) {
    // This user's own folder, made unreadable (by a command, to hide what is in it): its owner's bits back, then read.
    if (!reopened || code(error) !== 'EACCES' || stat.uid !== process.getuid?.()) return { error: code(error) };
    try {
      fs.chmodSync(dir, (stat.mode & 0o7777) | 0o500);
      entries = listRaw(dir);
      reopened.push(dir);
    } catch (again) {
      return { error: code(again) };
    }
  }
  const subfolders: string[] = [];
  let git = false;
  const names = new Set<string>();
  const unnamed: string[] = [];
  for (const entry of entries) {
    const name = entry.name.toString('utf8');
    names.add(entry.isDirectory() ? `${name}/` : name);
    // A name that is not UTF-8 does not come back from its decoding: no path made of it leads there.
    if (entry.isDirectory() && !Buffer.from(name, 'utf8').equals(entry.name)) unnamed.push(`${dir}/${name}`);
    else if (name === '.git') git = true;
    else if (entry.isDirectory()) subfolders.push(`${dir}/${name}`);
  }
  // git takes a folder with HEAD, objects/ and refs/ for a git folder when it runs there (a bare repository).
  const bare = (names.has('HEAD') || names.has('HEAD/')) && names.has('objects/') && names.has('refs/');
  // fs.Stats of the folder: its ctime now (after a chmod above, the new one).
  const ctimeMs = fs.lstatSync(dir, { throwIfNoEntry: false })?.ctimeMs ?? stat.ctimeMs;
  return { ctimeMs, subfolders, git, bare, unnamed, walk: 0 };
}

/** A folder's entries with their names as the bytes they are. */
function listRaw(dir: string): fs.Dirent<Buffer>[] {
  return fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
}

/**
 * Every `.git` and bare layout under `roots` by the system's find (git folders not entered,
 * links not followed); what it could not read, and paths that are not UTF-8, as unsearched.
 */
function findAll(roots: readonly string[]): Promise<{ repos: string[]; unsearched: string[] }> {
  const find = systemExecutable('find');
  if (!find) return Promise.reject(new RepoScanIncomplete('the workspace is too large to walk, and the system has no find to search it'));
  // `-name .git -prune`: a repository's own folder is not entered; `-name HEAD`: a bare layout, checked below.
  const args = [...roots, '(', '-name', '.git', '-prune', '-print0', ')', '-o', '(', '-name', 'HEAD', '-print0', ')'];
  return new Promise((resolve, reject) => {
    const child = spawn(find, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), FIND_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new RepoScanIncomplete(`the workspace is too large to search for repositories (${error.message})`));
    });
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      // find exits 1 when a folder could not be read: what it could read is still listed, and what it could not is said.
      if (signal) return reject(new RepoScanIncomplete(`the workspace is too large to search for repositories (find was stopped: ${signal})`));
      const unsearched = Buffer.concat(errors).toString('utf8').split('\n').filter(Boolean).map((line) => line.replace(/^[^:]*find: /, ''));
      const found: string[] = [];
      const out = Buffer.concat(chunks);
      for (let start = 0, end; (end = out.indexOf(0, start)) >= 0; start = end + 1) {
        const raw = out.subarray(start, end);
        const text = raw.toString('utf8');
        if (Buffer.from(text, 'utf8').equals(raw)) found.push(text);
        else unsearched.push(`${text} (its name is not valid UTF-8)`);
      }
      const repos = found.filter((p) => p.endsWith('/.git'));
      for (const head of found.filter((p) => p.endsWith('/HEAD'))) {
        const dir = head.slice(0, -'/HEAD'.length);
        if (isDir(`${dir}/objects`) && isDir(`${dir}/refs`)) repos.push(dir);
      }
      resolve({ repos: repos.sort(), unsearched });
    });
  });
}

const isDir = (p: string): boolean => fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
const code = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
