// Reading a file the workspace hands us, so that nothing in it can turn the read into
// another: only a regular file with one name (a hard link may be a secret's other name),
// opened without blocking (a FIFO cannot hang the host), not through a link unless asked
// (and then checked on what was opened), and only as far as needed.
import fs from 'node:fs';
import path from 'node:path';
import { secretReasons } from './pathRules';
import { isWithin } from './workspace';

const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;

/** Where an open descriptor leads (Linux's /proc), or undefined where that cannot be known. */
export function openedPath(fd: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

export interface OpenOptions {
  /** Follow a link at the last step (AGENTS.md → CLAUDE.md); default not: a link is refused. */
  readonly follow?: boolean;
  /** The real folder the opened file must be in (checked on what was opened, not on the name). */
  readonly within?: string;
}

/** Opens a regular file with one name for reading, without blocking; undefined otherwise. */
export function openRegular(file: string, options: OpenOptions = {}): { fd: number; stat: fs.Stats } | undefined {
  let fd: number;
  try {
    if (!fs.statSync(file).isFile()) return undefined;
    fd = fs.openSync(file, O_RDONLY | O_NONBLOCK | (options.follow ? 0 : O_NOFOLLOW));
  } catch {
    return undefined;
  }
  const stat = fs.fstatSync(fd);
  const opened = options.within ? openedPath(fd) : undefined;
  if (!stat.isFile() || stat.nlink > 1 || (opened !== undefined && !isWithin(options.within!, opened))) {
    fs.closeSync(fd);
    return undefined;
  }
  return { fd, stat };
}

/** At most `max` bytes of a file as UTF-8; undefined when it is not a regular file with one name (not a link, unless `follow`), or cannot be read. */
export function readBounded(file: string, max: number, options: OpenOptions = {}): string | undefined {
  const opened = openRegular(file, options);
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
 * A file of the project the agent is given whole (AGENTS.md, .peon/instructions.md): read
 * only when it really is in the workspace (a link to ~/.aws/credentials or /proc/self/environ
 * is not), is not secret-like, is a regular file with one name; at most `max` bytes.
 */
export function readProjectFile(root: string, relative: string, max: number): string | undefined {
  let realRoot: string;
  let real: string;
  try {
    realRoot = fs.realpathSync.native(root);
    real = fs.realpathSync.native(path.join(realRoot, relative));
  } catch {
    return undefined;
  }
  if (!isWithin(realRoot, real) || secretReasons(path.relative(realRoot, real).split(path.sep)).length > 0) return undefined;
  return readBounded(real, max, { within: realRoot });
}
