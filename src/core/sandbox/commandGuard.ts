// What a sandboxed command did to what it may not make (DESIGN.md §9), settled once it
// ended: the empty covers bubblewrap made over missing protected paths are removed; a
// protected path it still made (where it could not be covered), a protected symlink it
// replaced and a `.git` it made anywhere are moved aside under a name it cannot guess —
// never deleted — and the command's result says where.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Absent } from './gitProtect';
import { removeEmptyCover } from './leftovers';
import { codeWorkspaceFiles, subfolders, type Protection } from './sandboxPlan';

/** What a command found before it ran, for afterCommand to compare with. */
export interface CommandGuard {
  readonly absent: readonly Absent[];
  readonly links: Protection['links'];
  /** The `.git` entries there were, at any depth, by identity (device and inode): a renamed folder keeps its own, a new `.git` in its place does not. */
  readonly repos: ReadonlySet<string>;
  /** The writable folders searched. */
  readonly writable: readonly string[];
  /** The VS Code workspace files there were (`*.code-workspace` in a writable folder or one below it), by identity. */
  readonly codeWorkspaces: ReadonlySet<string>;
  /** Drops the record of this command's covers (leftovers.ts), once they are gone. */
  readonly release?: () => void;
}

/** Where a new VS Code workspace file would take effect: each writable folder and the folders right below it. */
const workspaceFiles = (writable: readonly string[]): string[] => writable.flatMap((root) => [root, ...subfolders(root)]).flatMap(codeWorkspaceFiles);

/** The guard for a command about to run: what is missing, the protected links, and the repositories by identity. */
export function guardOf(protection: Protection, repos: readonly string[], writable: readonly string[]): CommandGuard {
  return { absent: protection.absent, links: protection.links, repos: new Set(repos.map(identity)), writable, codeWorkspaces: new Set(protection.codeWorkspaces.map(identity)) };
}

/** After the command (`repos`: finds the `.git` entries there are, once the covers are gone): what to tell, on its card. */
export function settle(guard: CommandGuard, repos: () => readonly string[]): string[] {
  for (const a of guard.absent) removeEmptyCover(a);
  const made = new Set<string>();
  for (const a of guard.absent) if (fs.lstatSync(a.path, { throwIfNoEntry: false })) made.add(a.path);
  for (const link of guard.links) {
    const stat = fs.lstatSync(link.path, { throwIfNoEntry: false });
    if (stat && !(stat.isSymbolicLink() && fs.readlinkSync(link.path) === link.target)) made.add(link.path);
  }
  for (const file of workspaceFiles(guard.writable)) if (!guard.codeWorkspaces.has(identity(file))) made.add(file);
  let unsearched: string | undefined;
  try {
    for (const entry of repos()) if (!guard.repos.has(identity(entry))) made.add(entry);
  } catch (error) {
    unsearched = `[the workspace could not be searched for repositories this command may have made (${error instanceof Error ? error.message : String(error)}): check for new .git folders or files before running git in it]`;
  }
  return [...[...made].sort().map(moveAside), ...(unsearched ? [unsearched] : [])];
}

/** Which file `p` is, whatever it is called now. */
function identity(p: string): string {
  const stat = fs.lstatSync(p, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}` : `missing:${p}`;
}

/** A protected path a sandboxed command made, renamed out of git's and the editor's way. */
function moveAside(made: string): string {
  const aside = `${made}.peon-blocked-${randomBytes(6).toString('hex')}`;
  const where = path.resolve(made);
  try {
    fs.renameSync(made, aside);
    return `[${where} was made by this sandboxed command and moved to ${path.basename(aside)}: it can make programs run outside the sandbox (git, VS Code or an agent CLI run what it names). Create it with the file tools, or run the command outside the sandbox; both ask the person.]`;
  } catch (error) {
    return `[${where} was made by this sandboxed command and could not be moved aside (${error instanceof Error ? error.message : String(error)}): check it before running git there or opening it in an editor.]`;
  }
}
