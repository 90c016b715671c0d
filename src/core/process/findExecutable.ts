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

/** Where the system's own programs live: never a folder a workspace or a PATH entry could add. */
const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/local/bin', '/opt/homebrew/bin', '/usr/sbin', '/sbin'];

/**
 * A program Peon runs for itself outside any sandbox (git to inspect a repository, find
 * to search a tree): taken from the system's folders only, never looked up on PATH,
 * where a workspace folder (direnv's PATH_add, a shell started in the project) could put
 * one a command planted. Undefined when the system has none.
 */
export function systemExecutable(name: string): string | undefined {
  for (const dir of SYSTEM_DIRS) {
    const file = path.join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}
