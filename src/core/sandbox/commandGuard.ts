// What a sandboxed command did to what it may not make (DESIGN.md §9), settled once it
// ended: the empty covers bubblewrap made over missing protected paths are removed; a
// protected path it still made (where it could not be covered), a protected symlink it
// replaced and a `.git` it made anywhere are moved aside under a name it cannot guess —
// never deleted — and the command's result says where.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Absent } from './gitProtect';
import { reachedDirectly, removeEmptyCover } from './leftovers';
import { forgetListing } from './folderListings';
import { isBareLayout, type RepoScanResult } from './repoScan';
import { namesIn, presence } from './folderListings';
import { codeWorkspaceFiles, PROTECTED_IN_WORKSPACE, subfolders, type Protection } from './sandboxPlan';

/** What a command found before it ran, for afterCommand to compare with. */
export interface CommandGuard {
  readonly absent: readonly Absent[];
  /** Those of `absent` bubblewrap covers with an empty folder or file while the command runs (removed after, when still empty). */
  readonly covered: readonly Absent[];
  readonly links: Protection['links'];
  /** The `.git` entries there were, at any depth, by identity (device and inode): a renamed folder keeps its own, a new `.git` in its place does not. */
  readonly repos: ReadonlySet<string>;
  /** The writable folders searched. */
  readonly writable: readonly string[];
  /** The VS Code workspace files there were (`*.code-workspace` in a writable folder or one below it), by identity. */
  readonly codeWorkspaces: ReadonlySet<string>;
  /** The folders right below each writable one before the command: their paths by identity (one renamed is found under its new name). */
  readonly subfolders: ReadonlyMap<string, string>;
  /** Folders the walk before the command could not read (said on the card). */
  readonly unsearched: readonly string[];
  /** Drops the record of this command's covers (leftovers.ts), once they are gone. */
  readonly release?: () => void;
}


/** The guard for a command about to run: what is missing, the protected links, the repositories by identity, the folders the walk could not read. */
export function guardOf(protection: Protection, repos: readonly string[], writable: readonly string[], unsearched: readonly string[] = [], covered: readonly Absent[] = []): CommandGuard {
  return { absent: protection.absent, covered, subfolders: new Map(protection.subfolders.map((sub) => [identity(sub), sub])), links: protection.links, repos: new Set(repos.map(identity)), writable, codeWorkspaces: new Set(protection.codeWorkspaces.map(identity)), unsearched };
}

/**
 * After the command (`repos`: the repositories there are, once the covers are gone): what
 * to tell, on its card. Nothing is removed or moved through a folder the command replaced
 * with a link: that would act on whatever the link names, outside the workspace too.
 */
export async function settle(guard: CommandGuard, repos: () => Promise<RepoScanResult>): Promise<string[]> {
  const notes: string[] = [];
  const relinked = new Set<string>();
  // Each folder's real path is asked once (hundreds of absent names share a few dozen folders); the command has ended.
  const reached = new Map<string, boolean>();
  const direct = (p: string): boolean => {
    const dir = path.dirname(p);
    let ok = reached.get(dir);
    if (ok === undefined) reached.set(dir, (ok = reachedDirectly(p)));
    if (!ok) relinked.add(dir);
    return ok;
  };
  // One entry that cannot be looked at (a folder made a file, or unreadable) is said, and the rest are still looked at.
  const careful = (p: string, check: () => void): void => {
    try {
      check();
    } catch (error) {
      notes.push(`[${p} could not be checked after this command (${error instanceof Error ? error.message : String(error)}): check it before running git or an editor there]`);
    }
  };
  // The repository search first: it gives this user's folders the command made unreadable their read and search bits back, so what follows can look in them.
  let found: RepoScanResult | undefined;
  try {
    found = await repos();
    for (const dir of found.reopened) notes.push(`[${dir} was made unreadable by this command; its owner's read and search permissions were given back so it could be searched for repositories]`);
    for (const dir of found.unsearched) notes.push(`[${dir} could not be searched for repositories or protected files this command may have made: check it before running git or an editor there]`);
  } catch (error) {
    notes.push(`[the workspace could not be searched for repositories this command may have made (${error instanceof Error ? error.message : String(error)}): check for new .git folders or files before running git in it]`);
  }
  // Only bubblewrap's own covers are removed: an empty file the command made where nothing was covered is moved aside below.
  for (const a of guard.covered) careful(a.path, () => direct(a.path) && removeEmptyCover(a, direct));
  const made = new Set<string>();
  // Folders that cannot be listed or searched even now (another owner's): said once each, not once per name.
  const unchecked = new Set<string>();
  const exists = presence();
  const there = (p: string): boolean => {
    const known = exists(p);
    if (known === undefined) unchecked.add(path.dirname(p));
    return known === true;
  };
  // The protected names of the folders right below are looked for by the folder's identity (below), not by path: two folders swapped must not make one's own name the other's new one.
  const before = new Set(guard.subfolders.values());
  const byFolder = (a: Absent): boolean => before.has(path.dirname(a.path)) && PROTECTED_IN_WORKSPACE.includes(path.basename(a.path));
  for (const a of guard.absent) if (!byFolder(a)) careful(a.path, () => direct(a.path) && there(a.path) && made.add(a.path));
  const absentAt = new Set(guard.absent.map((a) => a.path));
  for (const link of guard.links) {
    careful(link.path, () => {
      if (!direct(link.path)) return;
      const stat = fs.lstatSync(link.path, { throwIfNoEntry: false });
      if (stat && !(stat.isSymbolicLink() && fs.readlinkSync(link.path) === link.target)) made.add(link.path);
    });
  }
  for (const root of guard.writable) {
    for (const base of [root, ...subfolders(root)]) {
      careful(base, () => {
        // A folder right below, by identity: a new one (made, or moved in under an old one's name) has every protected name the command's;
        // one that was there (moved or not) has those that were missing where it was.
        if (base !== root) {
          const was = guard.subfolders.get(identity(base));
          for (const rel of PROTECTED_IN_WORKSPACE) {
            const at = path.join(base, rel);
            if (rel !== '.git' && (was === undefined || absentAt.has(path.join(was, rel))) && direct(at) && there(at)) made.add(at);
          }
        }
        const names = namesIn(base);
        if (!names) return void unchecked.add(base);
        for (const file of codeWorkspaceFiles(base, names)) careful(file, () => !guard.codeWorkspaces.has(identity(file)) && made.add(file));
      });
    }
  }
  // Repositories: a cover removed above is not one (nor a bare layout whose HEAD was that cover); any other that is not there now is said.
  const covers = new Set(guard.covered.map((c) => c.path));
  for (const entry of found?.repos ?? []) {
    careful(entry, () => {
      const mark = isBareLayout(entry) ? path.join(entry, 'HEAD') : entry;
      if (!fs.lstatSync(mark, { throwIfNoEntry: false })) {
        if (!covers.has(mark)) notes.push(`[${mark} was found as a repository but is not there now: check it before running git there]`);
        return;
      }
      if (!guard.repos.has(identity(entry))) made.add(mark);
    });
  }
  for (const dir of unchecked) notes.push(`[${dir} could not be listed after this command: check it for .git, .vscode, .claude and *.code-workspace files before running git or an editor there]`);
  for (const dir of guard.unsearched) notes.push(`[${dir} could not be searched for repositories before this command ran]`);
  for (const dir of relinked) notes.push(`[${dir} was replaced by a link during this command: nothing was removed or moved through it; check what it holds and names before running git or an editor there]`);
  return [...[...made].filter(direct).sort().map(moveAside), ...notes];
}

/** Which file `p` is, whatever it is called now. */
function identity(p: string): string {
  const stat = fs.lstatSync(p, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}` : `missing:${p}`;
}

/** A protected path a sandboxed command made, renamed out of git's and the editor's way. */
function moveAside(made: string): string {
  forgetListing(path.dirname(made));
  const aside = `${made}.peon-blocked-${randomBytes(6).toString('hex')}`;
  const where = path.resolve(made);
  try {
    fs.renameSync(made, aside);
    return `[${where} was made by this sandboxed command and moved to ${path.basename(aside)}: it can make programs run outside the sandbox (git, VS Code or an agent CLI run what it names). Create it with the file tools, or run the command outside the sandbox; both ask the person.]`;
  } catch (error) {
    return `[${where} was made by this sandboxed command and could not be moved aside (${error instanceof Error ? error.message : String(error)}): check it before running git there or opening it in an editor.]`;
  }
}
