// Resolving a command name to an absolute executable through PATH, as a shell would,
// so the card can show exactly which program will run.
import fs from 'node:fs';
import path from 'node:path';

/** A regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of `command` (a name looked up on PATH, or a path), symlinks resolved
 * unless `resolveLinks` is false, or undefined.
 */
export function findExecutable(command: string, env: NodeJS.ProcessEnv = process.env, resolveLinks = true): string | undefined {
  const candidates = command.includes('/')
    ? [path.resolve(command)]
    : (env.PATH ?? '').split(path.delimiter).filter((dir) => path.isAbsolute(dir)).map((dir) => path.join(dir, command));
  const found = candidates.find(isExecutableFile);
  if (found === undefined) return undefined;
  return resolveLinks ? fs.realpathSync(found) : found;
}
