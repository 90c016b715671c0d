// What a Peon killed with SIGKILL leaves of its sandbox (DESIGN.md §9, SECURITY.md rule
// 7): its conversations' private /tmp folders, the empty covers folder, and — in the
// workspace — the empty read-only folders and files that covered missing protected paths
// while a command ran. Each command with covers writes their list to a journal next to
// its private /tmp (in the host's temp folder, which the command does not see) and
// removes it when done; the next Peon to start a sandbox clears what a dead one left.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { forgetListing } from './folderListings';
import type { Absent } from './gitProtect';

const PREFIXES = ['peon-sandbox-tmp-', 'peon-sandbox-empty-'];

/** The prefix of this process's private folders: the pid says whose they are. */
export const ownPrefix = (kind: 'tmp' | 'empty'): string => `peon-sandbox-${kind}-${process.pid}-`;

/** Records the covers a command is about to get, for a later Peon to remove should this one die first. */
export function journalCovers(tmp: string, covers: readonly Absent[]): () => void {
  const journal = `${tmp}.covers`;
  if (covers.length === 0) return () => undefined;
  fs.writeFileSync(journal, JSON.stringify(covers.map((c) => ({ path: c.path, dir: c.dir }))), { mode: 0o600 });
  return () => fs.rmSync(journal, { force: true });
}

/** Whether `p`'s folder is reached through no link (its real path is its path): acting on `p` acts there and nowhere else. */
export function reachedDirectly(p: string): boolean {
  const dir = path.dirname(p);
  try {
    return fs.realpathSync.native(dir) === dir;
  } catch {
    return false;
  }
}

/**
 * An empty cover (a folder with nothing in it, a file of 0 bytes) removed; anything else,
 * or one reached through a link, is left as it is. `reached`: the check of the path's
 * folder (a caller that asks for many paths answers it once per folder).
 */
export function removeEmptyCover(absent: Pick<Absent, 'path' | 'dir'>, reached: (p: string) => boolean = reachedDirectly): void {
  if (!reached(absent.path)) return;
  forgetListing(path.dirname(absent.path));
  try {
    const stat = fs.lstatSync(absent.path, { throwIfNoEntry: false });
    if (absent.dir && stat?.isDirectory() && fs.readdirSync(absent.path).length === 0) fs.rmdirSync(absent.path);
    else if (!absent.dir && stat?.isFile() && stat.size === 0) fs.unlinkSync(absent.path);
  } catch {
    // Left as it is: a command's own file, or one the person made since.
  }
}

/** Made by this user, and not a link: a name in a shared folder proves nothing by itself. */
function ours(p: string): boolean {
  const stat = fs.lstatSync(p, { throwIfNoEntry: false });
  return stat !== undefined && !stat.isSymbolicLink() && stat.uid === process.getuid?.();
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Clears what sandboxes of dead Peon processes left in `dir` (the host's temp folder). */
export function clearLeftovers(dir = os.tmpdir()): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const prefix = PREFIXES.find((p) => name.startsWith(p));
    const pid = prefix ? Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]) : NaN;
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid) || name.endsWith('.covers')) continue;
    const full = path.join(dir, name);
    try {
      // The host's temp folder is shared: only what this user made is touched (another user cannot make a file ours).
      if (!ours(full) || !fs.lstatSync(full).isDirectory()) continue;
      const journal = `${full}.covers`;
      if (ours(journal)) for (const cover of JSON.parse(fs.readFileSync(journal, 'utf8')) as Absent[]) removeEmptyCover(cover);
      fs.rmSync(journal, { force: true });
      // The empty covers' folder is read-only (0555): made writable to remove it — but never through a link.
      const covers = path.join(full, 'dir');
      if (ours(covers) && fs.lstatSync(covers).isDirectory()) fs.chmodSync(covers, 0o700);
      fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // Someone else's, or half gone: left for the next start.
    }
  }
}
