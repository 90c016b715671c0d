// How memory touches the disk, so that nothing in a workspace can turn it into a read
// or a write elsewhere: its folders are real folders inside the workspace (a link on
// the way is refused, never followed), files are opened only when they are regular
// files with one name, without blocking (a FIFO cannot hang the host), and read only as
// far as needed; new files are created exclusively (a link planted in their place is
// not followed).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { secretReasons } from '../workspace/pathRules';
import { isWithin } from '../workspace/workspace';

const { O_RDONLY, O_NONBLOCK } = fs.constants;
/** Cited files larger than this are not hashed (and so not cited). */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

/**
 * `root/.peon/memory/...parts` as a real folder, each part checked with lstat and
 * created one at a time when `create`: undefined when a part is a link or not a folder.
 */
export function realFolder(root: string, parts: readonly string[], create: boolean): string | undefined {
  let current: string;
  try {
    current = fs.realpathSync.native(root);
  } catch {
    return undefined;
  }
  for (const part of ['.peon', 'memory', ...parts]) {
    current = path.join(current, part);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(current);
    } catch {
      if (!create) return undefined;
      try {
        fs.mkdirSync(current);
        stat = fs.lstatSync(current);
      } catch {
        return undefined;
      }
    }
    if (stat.isSymbolicLink() || !stat.isDirectory()) return undefined;
  }
  return current;
}

/** Opens a regular file with one name for reading, without blocking; undefined otherwise. */
function openRegular(file: string): { fd: number; stat: fs.Stats } | undefined {
  let fd: number;
  try {
    if (!fs.statSync(file).isFile()) return undefined;
    fd = fs.openSync(file, O_RDONLY | O_NONBLOCK);
  } catch {
    return undefined;
  }
  const stat = fs.fstatSync(fd);
  if (!stat.isFile() || stat.nlink > 1) {
    fs.closeSync(fd);
    return undefined;
  }
  return { fd, stat };
}

/** At most `max` bytes of a file as UTF-8; undefined when it is not a regular file with one name, or cannot be read. */
export function readBounded(file: string, max: number): string | undefined {
  const opened = openRegular(file);
  if (!opened) return undefined;
  try {
    const buffer = Buffer.allocUnsafe(Math.min(max, opened.stat.size));
    let filled = 0;
    while (filled < buffer.length) {
      const n = fs.readSync(opened.fd, buffer, filled, buffer.length - filled, null);
      if (n === 0) break;
      filled += n;
    }
    return buffer.subarray(0, filled).toString('utf8');
  } catch {
    return undefined;
  } finally {
    fs.closeSync(opened.fd);
  }
}

/**
 * The SHA-256 of a workspace file an entry cites, read where it really is: undefined
 * when it resolves outside the workspace, is secret-like, has another name, is not a
 * regular file or is larger than 64 MiB (then it is not cited, or reads as changed).
 */
export function citedHash(realRoot: string, relative: string): { sha256: string; mtimeMs: number; size: number } | undefined {
  let real: string;
  try {
    real = fs.realpathSync.native(path.resolve(realRoot, relative));
  } catch {
    return undefined;
  }
  if (!isWithin(realRoot, real) || secretReasons(path.relative(realRoot, real).split(path.sep)).length > 0) return undefined;
  const opened = openRegular(real);
  if (!opened) return undefined;
  try {
    if (opened.stat.size > MAX_HASHED_BYTES) return undefined;
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(256 * 1024);
    for (;;) {
      const n = fs.readSync(opened.fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      hash.update(chunk.subarray(0, n));
    }
    return { sha256: hash.digest('hex'), mtimeMs: opened.stat.mtimeMs, size: opened.stat.size };
  } catch {
    return undefined;
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** Writes a new file that must not exist yet (a link in its place fails, never followed). */
export function writeExclusive(file: string, data: string): void {
  fs.writeFileSync(file, data, { flag: 'wx' });
}
