// Resolving a command name to an absolute executable through PATH, as a shell would,
// so the card can show exactly which program will run.
import fs from 'node:fs';
import path from 'node:path';

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute, symlink-free path of `command` (a name looked up on PATH, or a path), or undefined. */
export function findExecutable(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = command.includes('/')
    ? [path.resolve(command)]
    : (env.PATH ?? '').split(path.delimiter).filter((dir) => path.isAbsolute(dir)).map((dir) => path.join(dir, command));
  const found = candidates.find(isExecutableFile);
  return found === undefined ? undefined : fs.realpathSync(found);
}
