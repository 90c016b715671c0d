// How memory writes, so that nothing in a workspace can turn it into a write (or a
// hash) elsewhere: its folders are real folders inside the workspace (a link on the way
// is refused, never followed); new files are created exclusively (a link planted in
// their place is not followed); a cited file is hashed where it really is. Reads go
// through src/core/workspace/safeRead.ts.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { secretReasons } from '../workspace/pathRules';
import { openRegular } from '../workspace/safeRead';
import { isWithin } from '../workspace/workspace';

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
  const opened = openRegular(real, { within: realRoot });
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
