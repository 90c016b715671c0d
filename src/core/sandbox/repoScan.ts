// Every repository in the workspace, at any depth (DESIGN.md §9): a sandboxed command
// must not change a nested repository's config or hooks either, and a `.git` it makes
// anywhere (`git init sub`, a `.git` file naming a crafted folder) runs programs the
// next time git runs there — VS Code's git extension opens the repository of any file
// the person opens. The walk is incremental, so it costs one lstat per folder per
// command once the first one is done: a folder is read again only when its mtime
// changed (an entry added, removed or renamed in it). node_modules and git folders are
// not searched; symlinks are not followed.
import fs from 'node:fs';

const NOT_SEARCHED = new Set(['node_modules', '.git']);

interface Folder {
  readonly mtimeMs: number;
  readonly subfolders: readonly string[];
  readonly git: boolean;
  /** The walk that last reached it (folders no walk reaches are forgotten). */
  walk: number;
}

export class RepoScan {
  private readonly folders = new Map<string, Folder>();
  private walks = 0;

  /** At most this many folders are walked (a home-sized tree): the rest are not searched. */
  constructor(private readonly limit = 50_000) {}

  /** The `.git` entries (folders or files) under `roots`, sorted. */
  find(roots: readonly string[]): string[] {
    const walk = ++this.walks;
    const found: string[] = [];
    const stack = [...roots].reverse();
    let walked = 0;
    while (stack.length > 0 && walked < this.limit) {
      const dir = stack.pop()!;
      let folder = this.folders.get(dir);
      if (folder?.walk === walk) continue;
      walked++;
      const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) continue;
      if (!folder || folder.mtimeMs !== stat.mtimeMs) this.folders.set(dir, (folder = read(dir, stat.mtimeMs)));
      folder.walk = walk;
      if (folder.git) found.push(`${dir}/.git`);
      for (let i = folder.subfolders.length - 1; i >= 0; i--) stack.push(folder.subfolders[i]!);
    }
    for (const [dir, folder] of this.folders) if (folder.walk !== walk) this.folders.delete(dir);
    return found.sort();
  }
}

function read(dir: string, mtimeMs: number): Folder {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return { mtimeMs, subfolders: [], git: false, walk: 0 };
  }
  const subfolders: string[] = [];
  let git = false;
  for (const entry of entries) {
    if (entry.name === '.git') git = true;
    if (entry.isDirectory() && !NOT_SEARCHED.has(entry.name)) subfolders.push(`${dir}/${entry.name}`);
  }
  return { mtimeMs, subfolders, git, walk: 0 };
}
