// Which bubblewrap runs: the system's (/usr/bin first), else one on PATH — never one
// inside a workspace folder, which would be the project's choice of sandbox.
import { findExecutable, isExecutableFile } from '../process/findExecutable';
import { isWithin } from '../workspace/workspace';

const SYSTEM = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

export function findBwrap(env: NodeJS.ProcessEnv, folders: readonly string[]): string | undefined {
  const found = SYSTEM.find(isExecutableFile) ?? findExecutable('bwrap', env);
  return found && !folders.some((f) => isWithin(f, found)) ? found : undefined;
}

/** Why findBwrap found none: not installed, or installed only inside a workspace folder (a workspace of /usr). */
export function noBwrapReason(env: NodeJS.ProcessEnv, folders: readonly string[]): string {
  const found = SYSTEM.find(isExecutableFile) ?? findExecutable('bwrap', env);
  const folder = found ? folders.find((f) => isWithin(f, found)) : undefined;
  if (found && folder) return `bubblewrap (${found}) lies inside the workspace folder ${folder}, where a command could replace it, so it is not used`;
  return 'bubblewrap is not installed (Debian/Ubuntu: sudo apt-get install bubblewrap)';
}
