// Every repository in the workspace, at any depth (DESIGN.md §9): a sandboxed command
// must not change a nested repository's config or hooks either, and a `.git` it makes
// anywhere (`git init sub`, a `.git` file naming a crafted folder) runs programs the
// next time git runs there — VS Code's git extension opens the repository of any file
// the person opens. The walk is incremental, so it costs one lstat per folder per
// command once the first one is done: a folder is read again only when its ctime
// changed. ctime, not mtime: an entry added, removed or renamed in a folder moves both,
// but a command can set mtime back (`touch -m -d`), and no one but the kernel sets
// ctime. Every folder is searched, node_modules too (a package's own `.git` is a
// repository git runs in); only git folders are not. Symlinks are not followed. Past
// `limit` folders the walk gives way to the system's `find`, which has no limit: a tree
// too large to walk quickly is still searched whole.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

interface Folder {
  readonly ctimeMs: number;
  readonly subfolders: readonly string[];
  readonly git: boolean;
  /** The walk that last reached it (folders no walk reaches are forgotten). */
  walk: number;
}

/** How long `find` may take over a very large tree before the search is called incomplete. */
const FIND_TIMEOUT_MS = 120_000;

export class RepoScanIncomplete extends Error {}

export class RepoScan {
  private readonly folders = new Map<string, Folder>();
  private walks = 0;

  /** At most this many folders are walked here (a home-sized tree): a larger one is searched by `find`. */
  constructor(private readonly limit = 100_000) {}

  /** The `.git` entries (folders or files) under `roots`, sorted. Throws RepoScanIncomplete when they cannot all be found. */
  find(roots: readonly string[]): string[] {
    const walk = ++this.walks;
    const found: string[] = [];
    const stack = [...roots].reverse();
    let walked = 0;
    while (stack.length > 0) {
      if (walked >= this.limit) {
        this.folders.clear(); // the next walk starts afresh: what this one skipped was never cached
        return findAll(roots);
      }
      const dir = stack.pop()!;
      let folder = this.folders.get(dir);
      if (folder?.walk === walk) continue;
      walked++;
      const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) continue;
      if (!folder || folder.ctimeMs !== stat.ctimeMs) this.folders.set(dir, (folder = read(dir, stat.ctimeMs)));
      folder.walk = walk;
      if (folder.git) found.push(`${dir}/.git`);
      for (let i = folder.subfolders.length - 1; i >= 0; i--) stack.push(folder.subfolders[i]!);
    }
    for (const [dir, folder] of this.folders) if (folder.walk !== walk) this.folders.delete(dir);
    return found.sort();
  }
}

function read(dir: string, ctimeMs: number): Folder {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return { ctimeMs, subfolders: [], git: false, walk: 0 };
  }
  const subfolders: string[] = [];
  let git = false;
  for (const entry of entries) {
    if (entry.name === '.git') git = true;
    else if (entry.isDirectory()) subfolders.push(`${dir}/${entry.name}`);
  }
  return { ctimeMs, subfolders, git, walk: 0 };
}

/** Every `.git` under `roots` by the system's find (git folders not entered, links not followed). */
function findAll(roots: readonly string[]): string[] {
  const result = spawnSync('find', [...roots, '-name', '.git', '-prune', '-print0'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: FIND_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] });
  // find exits 1 when a folder could not be read: what it could read is still listed, and what it could not, no command can write either.
  if (result.error || result.signal || typeof result.stdout !== 'string') throw new RepoScanIncomplete(`the workspace is too large to search for repositories (${result.error?.message ?? result.signal ?? 'no output'})`);
  return result.stdout.split('\0').filter(Boolean).sort();
}
