// Folder listings for the sandbox's guard (commandGuard.ts, sandboxPlan.ts): which of the
// protected names a workspace folder holds, asked of its listing, not name by name.
import fs from 'node:fs';
import path from 'node:path';
import { racy } from '../workspace/racy';

/**
 * Folder listings kept with the folder's ctime, taken before it was read: an entry added,
 * removed or renamed moves the ctime (and no program can set it back), so the same folder
 * (inode) with the same ctime holds the same names. One changed too close to its reading
 * is not kept (racy.ts), and Peon's own renames there (a path moved aside, a cover
 * removed) forget it.
 */
const listings = new Map<string, { readonly ino: number; readonly ctimeMs: number; readonly names: ReadonlySet<string> }>();
const MAX_LISTINGS = 4096;

/** The names in a folder; undefined when it cannot be read. */
export function namesIn(dir: string): ReadonlySet<string> | undefined {
  try {
    const { ino, ctimeMs } = fs.statSync(dir);
    const kept = listings.get(dir);
    if (kept?.ino === ino && kept.ctimeMs === ctimeMs) return kept.names;
    const names: ReadonlySet<string> = new Set(fs.readdirSync(dir));
    if (listings.size >= MAX_LISTINGS) listings.clear();
    if (!racy(ctimeMs, Date.now())) listings.set(dir, { ino, ctimeMs, names });
    else listings.delete(dir);
    return names;
  } catch {
    listings.delete(dir);
    return undefined;
  }
}

/**
 * Whether each path asked exists, by its folder's listing: each folder is listed once
 * (namesIn). Undefined: its folder can be neither listed nor searched, so it cannot say.
 */
export function presence(): (p: string) => boolean | undefined {
  const seen = new Map<string, ReadonlySet<string> | undefined>();
  return (p) => {
    const dir = path.dirname(p);
    if (!seen.has(dir)) seen.set(dir, namesIn(dir));
    const names = seen.get(dir);
    if (names) return names.has(path.basename(p));
    try {
      return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
    } catch (error) {
      // Below a file now: not there. Anything else (EACCES): it cannot say.
      return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? false : undefined;
    }
  };
}

/** Forgets `dir`'s listing: Peon changed what it holds (within its ctime's tick, maybe). */
export function forgetListing(dir: string): void {
  listings.delete(dir);
}
