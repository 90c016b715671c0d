// Which bubblewrap runs: the system's (/usr/bin first), else one on PATH — never one
// inside a workspace folder, which would be the project's choice of sandbox.
import { findExecutable, isExecutableFile } from '../process/findExecutable';
import { isWithin } from '../workspace/workspace';

const SYSTEM = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

export function findBwrap(env: NodeJS.ProcessEnv, folders: readonly string[]): string | undefined {
  const found = SYSTEM.find(isExecutableFile) ?? findExecutable('bwrap', env);
  return found && !folders.some((f) => isWithin(f, found)) ? found : undefined;
}
