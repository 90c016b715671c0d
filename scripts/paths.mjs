// Where the test and run scripts keep what they provision: outside the repository,
// so a fresh clone reuses a warm cache and `git clean` never throws it away.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const cacheRoot = process.env.PEON_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'peon');

export const CODE_SERVER_VERSION = '4.99.4'; // VS Code 1.99.3, extension host on Node 20
export const codeServerDir = path.join(cacheRoot, `code-server-${CODE_SERVER_VERSION}`);
export const codeServerEntry = path.join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** Build output and test artifacts, inside the repository but ignored by git. */
export const distDir = path.join(repoRoot, 'dist');
export const artifactsDir = path.join(repoRoot, 'test-results');
