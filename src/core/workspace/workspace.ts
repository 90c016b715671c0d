// Virtual paths (DESIGN.md §3): relative to the workspace root with '/' separators,
// `~` for home, absolute paths accepted. Containment is decided on the canonical path
// (realpath of the target, or of its nearest existing parent), segment by segment.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolError } from '../tools/toolError';
import { IgnoreRules } from './ignoreRules';
import { protectedReason, secretReasons } from './pathRules';

export interface WorkspaceFolder {
  readonly name: string;
  /** Canonical absolute path. */
  readonly root: string;
  readonly ignore: IgnoreRules;
}

export interface ResolvedPath {
  /** As the caller wrote it. */
  readonly input: string;
  /** What to show: the virtual path inside the workspace, the absolute path outside it. */
  readonly display: string;
  /** The path the caller named, made absolute (symlinks not followed). */
  readonly absolute: string;
  /** Symlinks followed: where reads and writes really go. */
  readonly canonical: string;
  readonly folder: WorkspaceFolder | undefined;
  /** Canonical path relative to its folder ('' for the root); undefined outside. */
  readonly relative: string | undefined;
  readonly inside: boolean;
  readonly exists: boolean;
  readonly isSymlink: boolean;
  readonly secretReasons: readonly string[];
  readonly protectedReason: string | undefined;
  readonly ignored: boolean;
  /** Resolved as the link itself (delete), not its target. */
  readonly asLink: boolean;
  /** How many names the file has (hard links): more than one, and another may be outside the workspace. */
  readonly hardLinks: number;
}

/** Is `child` equal to or below `parent`? Both canonical; compared segment by segment. */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

const MAX_LINKS = 40; // as the kernel's ELOOP limit

/**
 * realpath of the nearest existing ancestor, with the rest appended. A dangling symbolic
 * link on the way is followed to where it points (realpath cannot): a write through it
 * would create its target, so the target is what containment must judge.
 */
function canonicalize(absolute: string, links = 0): { canonical: string; exists: boolean } {
  if (links > MAX_LINKS) throw new ToolError('invalid_input', `${absolute} goes through too many symbolic links (a loop?).`);
  try {
    return { canonical: fs.realpathSync.native(absolute), exists: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new ToolError('invalid_input', `${absolute} is a symbolic link loop.`);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return { canonical: absolute, exists: false };
  const base = canonicalize(parent, links).canonical;
  const here = path.join(base, path.basename(absolute));
  let target: string | undefined;
  try {
    if (fs.lstatSync(here).isSymbolicLink()) target = fs.readlinkSync(here);
  } catch {
    // nothing there: a new name
  }
  if (target !== undefined) return { canonical: canonicalize(path.resolve(base, target), links + 1).canonical, exists: false };
  return { canonical: here, exists: false };
}

const toVirtual = (p: string): string => p.split(path.sep).join('/');

export class Workspace {
  readonly folders: readonly WorkspaceFolder[];
  readonly home: string;

  constructor(folders: readonly { name?: string; path: string }[], home = os.homedir()) {
    if (folders.length === 0) throw new Error('A workspace needs at least one folder.');
    this.folders = folders.map((f) => {
      const root = fs.realpathSync.native(path.resolve(f.path));
      return { name: f.name ?? path.basename(root), root, ignore: new IgnoreRules(root) };
    });
    this.home = home;
  }

  get root(): WorkspaceFolder {
    return this.folders[0]!;
  }

  /** The absolute path a virtual path names, before symlinks are followed. */
  absolute(input: string): string {
    if (input.includes('\0')) throw new ToolError('invalid_input', 'The path contains a NUL character.');
    if (input === '~') return this.home;
    if (input.startsWith('~/')) return path.join(this.home, input.slice(2));
    if (path.isAbsolute(input)) return path.normalize(input);
    const [first, ...rest] = input.split('/');
    const named = this.folders.length > 1 ? this.folders.find((f) => f.name === first) : undefined;
    if (named && named !== this.root && fs.existsSync(path.join(this.root.root, first!))) {
      throw new ToolError(
        'invalid_input',
        `${input} is ambiguous: "${first}" is a workspace folder and also an entry of ${this.root.name}. Write ${this.root.name}/${input} or ${named.name}/${rest.join('/')} instead.`,
      );
    }
    if (named) return path.join(named.root, ...rest);
    return path.join(this.root.root, input);
  }

  resolve(input: string): ResolvedPath {
    const absolute = this.absolute(input.trim() === '' ? '.' : input);
    let isSymlink = false;
    try {
      isSymlink = fs.lstatSync(absolute).isSymbolicLink();
    } catch {
      // does not exist (yet)
    }
    const { canonical, exists } = canonicalize(absolute);
    return this.describe(input, absolute, canonical, exists, isSymlink, false);
  }

  /** The same path resolved again now: what it means may have changed since (a swapped symlink). */
  recheck(p: ResolvedPath): ResolvedPath {
    return p.asLink ? this.resolveLink(p.input) : this.resolve(p.input);
  }

  /** A symlink itself (not its target): for delete, which removes only the link. */
  resolveLink(input: string): ResolvedPath {
    const absolute = this.absolute(input);
    const parent = canonicalize(path.dirname(absolute)).canonical;
    const canonical = path.join(parent, path.basename(absolute));
    let exists = false;
    try {
      fs.lstatSync(canonical);
      exists = true;
    } catch {
      // missing
    }
    return this.describe(input, absolute, canonical, exists, true, true);
  }

  private folderOf(p: string): WorkspaceFolder | undefined {
    return [...this.folders].sort((a, b) => b.root.length - a.root.length).find((f) => isWithin(f.root, p));
  }

  /** Why a path is protected, judged on the name given and on where it leads. */
  private protection(absolute: string, canonical: string): string | undefined {
    for (const p of [canonical, absolute]) {
      const folder = this.folderOf(p);
      const relative = folder ? toVirtual(path.relative(folder.root, p)) : undefined;
      const homeRelative = isWithin(this.home, p) ? toVirtual(path.relative(this.home, p)) : undefined;
      const reason = protectedReason(relative, homeRelative);
      if (reason) return reason;
    }
    return undefined;
  }

  private describe(input: string, absolute: string, canonical: string, exists: boolean, isSymlink: boolean, asLink: boolean): ResolvedPath {
    const folder = this.folderOf(canonical);
    const relative = folder ? toVirtual(path.relative(folder.root, canonical)) : undefined;
    let isDirectory = false;
    let hardLinks = 1;
    if (exists) {
      try {
        const stat = fs.statSync(canonical);
        isDirectory = stat.isDirectory();
        if (stat.isFile()) hardLinks = stat.nlink;
      } catch {
        // a dangling link
      }
    }
    // With several folders every path names its folder, so two files never look alike.
    const display = folder === undefined ? canonical : this.folders.length > 1 ? `${folder.name}/${relative}` : relative || '.';
    return {
      input,
      display,
      absolute,
      canonical,
      folder,
      relative,
      inside: folder !== undefined,
      exists,
      isSymlink,
      secretReasons: [...new Set([...secretReasons(toVirtual(canonical).split('/')), ...secretReasons(toVirtual(absolute).split('/'))])],
      protectedReason: this.protection(absolute, canonical),
      ignored: folder !== undefined && relative !== undefined ? folder.ignore.isIgnored(relative, isDirectory) : false,
      asLink,
      hardLinks,
    };
  }
}
