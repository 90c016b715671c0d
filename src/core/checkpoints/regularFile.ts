// How checkpoints look at a workspace path: never through a symlink at its own name,
// never blocking on a FIFO or a device (the extension host would freeze), and never
// writing through a folder that has become a symlink since the step (a revert must not
// put bytes, or delete a file, outside the workspace).
import fs from 'node:fs';
import path from 'node:path';

/** What is at a path: a regular file (opened, not followed), nothing, or something else (a link, a FIFO, a folder). */
export type Entry = { readonly kind: 'file'; readonly fd: number; readonly stat: fs.Stats } | { readonly kind: 'absent' } | { readonly kind: 'other' };

const FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW;

/** Opens `file` when it is a regular file; the caller closes the descriptor. */
export function openRegular(file: string): Entry {
  let fd: number;
  try {
    fd = fs.openSync(file, FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: a symlink at the name; others (EACCES, EISDIR…): there, but not for us to read.
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'absent' } : { kind: 'other' };
  }
  const stat = fs.fstatSync(fd);
  if (stat.isFile()) return { kind: 'file', fd, stat };
  fs.closeSync(fd);
  return { kind: 'other' };
}

/** A regular file's bytes and stat; 'absent' or 'other' when it is not one. */
export function readRegular(file: string): { readonly bytes: Buffer; readonly stat: fs.Stats } | 'absent' | 'other' {
  const entry = openRegular(file);
  if (entry.kind !== 'file') return entry.kind;
  try {
    return { bytes: fs.readFileSync(entry.fd), stat: entry.stat };
  } finally {
    fs.closeSync(entry.fd);
  }
}

/**
 * Why `rel` cannot be written or removed under `root` without going through a link: the
 * first folder on its way that is a symlink or not a folder. Undefined: every folder
 * that exists is a real one (those missing are made by the write, as real folders).
 */
export function blockedPath(root: string, rel: string): string | undefined {
  const parts = rel.split('/').slice(0, -1);
  let at = root;
  for (const part of parts) {
    at = path.join(at, part);
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (!stat) return undefined;
    if (stat.isSymbolicLink()) return `${path.relative(root, at)} is now a symbolic link: nothing is written through it`;
    if (!stat.isDirectory()) return `${path.relative(root, at)} is now a file, not a folder`;
  }
  return undefined;
}
