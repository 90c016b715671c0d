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
  // Docker's credentials and Docker Desktop's, Colima's and Lima's sockets (a socket is the daemon: root).
  '.docker',
  '.colima',
  '.lima',
  '.config/containers/auth.json',
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
  '.pgpass',
  '.my.cnf',
  '.s3cfg',
  '.config/rclone',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
  '.Xauthority',
  '.bash_history',
  '.zsh_history',
  '.psql_history',
  '.mysql_history',
  '.python_history',
  '.node_repl_history',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  'snap/firefox',
  'snap/chromium',
  '.config/github-copilot',
  '.gemini',
  '.claude.json',
  '.claude/.credentials.json',
  '.codex/auth.json',
  '.pi/agent/auth.json',
  '.local/state/peon',
  // Every editor's extension state and its conversations (Peon's among them), of every workspace.
  ...['.config/Code', '.config/Code - Insiders', '.config/VSCodium', '.config/Cursor', '.vscode-server/data', '.local/share/code-server'].flatMap((app) => [`${app}/User/globalStorage`, `${app}/User/workspaceStorage`]),
];

/** Absolute locations hidden too: as root the shadow files and host keys are readable; LXD's socket is the daemon. */
export const SYSTEM_SECRETS: readonly string[] = ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/gshadow-', '/etc/ssh', '/var/snap/lxd/common/lxd', '/var/lib/lxd'];

/**
 * Workspace-relative paths whose change runs code outside the sandbox: read-only inside.
 * `.git` whole (a folder or a worktree's file): its config, hooks, commondir, modules and
 * worktrees all name programs git runs, and as a mount point it cannot be moved aside.
 * VS Code, direnv, the agent CLIs' project settings (hooks), Peon's own, CI.
 */
export const PROTECTED_IN_WORKSPACE: readonly string[] = ['.git', '.vscode', '.mcp.json', '.envrc', '.peon', '.husky', '.devcontainer', '.github', '.claude', '.codex', '.pi', '.gemini', '.cursor'];

/** How deep below a workspace folder repositories are looked for (VS Code's git.repositoryScanMaxDepth is 1). */
const NESTED_DEPTH = 1;
/** Folders never searched for nested repositories. */
const NOT_SEARCHED = new Set(['node_modules', '.git']);

/** `candidate`'s real location, when it exists (most do not: asked without throwing, on every command). */
function realOf(candidate: string): { real: string; dir: boolean } | undefined {
  try {
    const stat = fs.statSync(candidate, { throwIfNoEntry: false });
    return stat ? { real: fs.realpathSync.native(candidate), dir: stat.isDirectory() } : undefined;
  } catch {
    return undefined;
  }
}

export const within = (root: string, p: string): boolean => p === root || p.startsWith(root.endsWith('/') ? root : `${root}/`);

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
  const candidates = [...(home ? SECRET_LOCATIONS.map((rel) => path.join(home, rel)) : []), ...SYSTEM_SECRETS, ...extra];
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

/** `root` and its subfolders down to NESTED_DEPTH: where a repository (and the rest) is protected. */
function protectedBases(root: string): string[] {
  const bases = [root];
  let level = [root];
  for (let depth = 0; depth < NESTED_DEPTH; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) if (entry.isDirectory() && !NOT_SEARCHED.has(entry.name)) next.push(path.join(dir, entry.name));
    }
    bases.push(...next);
    level = next;
  }
  return bases;
}

/**
 * The workspace paths that stay read-only, where they exist, at their real location inside
 * a writable folder: in each folder and its subfolders (nested repositories), and where a
 * repository's core.hooksPath points inside the workspace.
 */
export function protectedPaths(writable: readonly string[]): string[] {
  const out = new Set<string>();
  const add = (candidate: string): void => {
    const found = realOf(candidate);
    if (found && writable.some((w) => within(w, found.real))) out.add(found.real);
  };
  for (const root of writable) {
    for (const base of protectedBases(root)) {
      for (const rel of PROTECTED_IN_WORKSPACE) add(path.join(base, rel));
      const hooks = hooksPathOf(path.join(base, '.git', 'config'));
      if (hooks) add(path.resolve(base, hooks));
    }
  }
  return [...out].sort();
}

/** A repository's core.hooksPath, read from its config (the simple `hooksPath = x` form git writes). */
function hooksPathOf(config: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(config, 'utf8');
  } catch {
    return undefined;
  }
  const value = /^\s*hookspath\s*=\s*(.+?)\s*$/im.exec(text)?.[1];
  return value?.replace(/^"(.*)"$/, '$1');
}

/** Which protected paths are missing now: a command that creates one is found out after it ran (mountable only where it exists). */
export function missingProtected(writable: readonly string[]): string[] {
  const out: string[] = [];
  for (const root of writable) for (const rel of PROTECTED_IN_WORKSPACE) if (!fs.existsSync(path.join(root, rel)) && !isLink(path.join(root, rel))) out.push(path.join(root, rel));
  return out;
}

const isLink = (p: string): boolean => fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;

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
