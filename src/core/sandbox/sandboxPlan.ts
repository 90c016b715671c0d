// The facts of this machine a sandbox plan needs (DESIGN.md §9): which secret locations
// exist and where they really are, which workspace paths run code outside the sandbox,
// where the user's runtime sockets and the resolver live. A mask goes on a path that
// exists, at its real location: bwrap never creates a mount point for it, so never
// through a symlink.
import fs from 'node:fs';
import path from 'node:path';

/** Home-relative locations of credentials (DESIGN.md §9, SECURITY.md "Sandbox"). */
export const SECRET_LOCATIONS: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/op',
  '.config/doctl',
  '.config/heroku',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.docker/config.json',
  '.kube',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.password-store',
  '.local/share/keyrings',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.claude.json',
  '.claude/.credentials.json',
  '.codex/auth.json',
  '.pi/agent/auth.json',
  '.local/state/peon',
  '.config/Code/User/globalStorage',
  '.vscode-server/data/User/globalStorage',
  '.local/share/code-server/User/globalStorage',
];

/** Workspace-relative paths whose change runs code outside the sandbox (git, VS Code, direnv): read-only inside. */
export const PROTECTED_IN_WORKSPACE: readonly string[] = ['.git/hooks', '.git/config', '.vscode', '.mcp.json', '.envrc', '.peon', '.husky', '.devcontainer', '.github/workflows'];

/** `candidate`'s real location, when it exists (most do not: asked without throwing, on every command). */
function realOf(candidate: string): { real: string; dir: boolean } | undefined {
  try {
    const stat = fs.statSync(candidate, { throwIfNoEntry: false });
    return stat ? { real: fs.realpathSync.native(candidate), dir: stat.isDirectory() } : undefined;
  } catch {
    return undefined;
  }
}

const within = (root: string, p: string): boolean => p === root || p.startsWith(root.endsWith('/') ? root : `${root}/`);

export interface Masks {
  readonly dirs: string[];
  readonly files: string[];
}

/**
 * The secret locations to hide, at their real paths. A path under /tmp that no
 * writable bind brings back is already out of sight (the command's /tmp is its own);
 * so is one under /run.
 */
export function secretMasks(home: string | undefined, extra: readonly string[], writable: readonly string[]): Masks {
  const candidates = [...(home ? SECRET_LOCATIONS.map((rel) => path.join(home, rel)) : []), ...extra];
  const dirs = new Set<string>();
  const files = new Set<string>();
  for (const candidate of candidates) {
    const found = realOf(candidate);
    if (!found || found.real === '/') continue;
    const unseen = (within('/tmp', found.real) || within('/run', found.real)) && !writable.some((w) => within(w, found.real));
    if (unseen) continue;
    (found.dir ? dirs : files).add(found.real);
  }
  return { dirs: [...dirs].sort(), files: [...files].sort() };
}

/** The workspace paths that stay read-only, where they exist, at their real location inside a writable folder. */
export function protectedPaths(writable: readonly string[]): string[] {
  const out = new Set<string>();
  for (const root of writable) {
    for (const rel of PROTECTED_IN_WORKSPACE) {
      const found = realOf(path.join(root, rel));
      if (found && writable.some((w) => within(w, found.real))) out.add(found.real);
    }
  }
  return [...out].sort();
}

/** The user's runtime folder when it is not under /run (which gets its own tmpfs). */
export function runtimeDirs(env: NodeJS.ProcessEnv): string[] {
  const dir = env.XDG_RUNTIME_DIR;
  if (!dir || !path.isAbsolute(dir)) return [];
  const found = realOf(dir);
  return found?.dir && !within('/run', found.real) && found.real !== '/' ? [found.real] : [];
}

/** What name resolution needs from /run with the network on (systemd-resolved's stub resolv.conf). */
export function resolverDirs(): string[] {
  const found = realOf('/etc/resolv.conf');
  return found && within('/run', found.real) ? [path.dirname(found.real)] : [];
}

/**
 * Makes `dest` a real folder inside the private tmp (`tmp` is /tmp inside), removing
 * any symlink a command planted on the way, so bwrap never makes a mount point through one.
 */
export function mountPointInTmp(tmp: string, dest: string): void {
  if (!within('/tmp', dest) || dest === '/tmp') return;
  let at = tmp;
  for (const part of dest.slice('/tmp/'.length).split('/').filter(Boolean)) {
    at = path.join(at, part);
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (stat?.isDirectory()) continue;
    if (stat) fs.rmSync(at, { force: true });
    fs.mkdirSync(at, { mode: 0o700 });
  }
}
