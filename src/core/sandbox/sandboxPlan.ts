// The facts of this machine a sandbox plan needs (DESIGN.md §9): which secret locations
// exist and where they really are, which workspace paths run code outside the sandbox,
// where the user's runtime sockets and the resolver live. A mask goes on a path that
// exists, at its real location: bwrap never creates a mount point for it, so never
// through a symlink.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { namesIn } from './folderListings';
import { byPath, gitProtection, personHooksPaths, type Absent } from './gitProtect';

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
  // git's credential cache daemon answers on a socket: whoever reaches it gets the passwords.
  '.cache/git/credential',
  '.git-credential-cache',
  // Password managers' and desktop VMs' agent sockets (a container VM's socket is root).
  '.1password',
  '.config/1Password',
  '.bitwarden-ssh-agent.sock',
  '.rd',
  '.orbstack',
  '.local/share/containers/podman/machine',
  '.config/containers/podman/machine',
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
  // Other tools' tokens and keys.
  '.cache/huggingface/token',
  '.huggingface/token',
  '.config/glab-cli',
  '.config/sops',
  '.fly',
  '.pulumi/credentials.json',
  '.oci',
  '.config/hcloud',
  '.config/netlify',
  '.netlify',
  '.config/stripe',
  '.config/ngrok',
  '.ngrok2',
  '.config/configstore',
  '.wrangler',
  '.config/.wrangler',
  '.databrickscfg',
  '.snowflake',
  '.dbt/profiles.yml',
  '.boto',
  '.circleci/cli.yml',
  '.supabase',
  '.config/helm/repositories.yaml',
  '.ollama/id_ed25519',
  '.local/share/com.vercel.cli',
  '.config/age',
  '.config/openai',
  '.config/anthropic',
  '.config/composer/auth.json',
  '.composer/auth.json',
  '.subversion/auth',
  '.config/pip/pip.conf',
  '.pip/pip.conf',
  '.bundle/config',
  '.terraformrc',
  // Every editor's extension state and its conversations (Peon's among them), of every workspace.
  ...['.config/Code', '.config/Code - Insiders', '.config/VSCodium', '.config/Cursor', '.vscode-server/data', '.local/share/code-server'].flatMap((app) => [`${app}/User/globalStorage`, `${app}/User/workspaceStorage`]),
];

/** Absolute locations hidden too: as root the shadow files and host keys are readable; LXD's socket is the daemon. */
export const SYSTEM_SECRETS: readonly string[] = [
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/shadow-',
  '/etc/gshadow-',
  '/etc/ssh',
  // TLS and VPN private keys, saved Wi-Fi and VPN passwords, cluster admin configs (readable as root).
  '/etc/ssl/private',
  '/etc/letsencrypt',
  '/etc/NetworkManager/system-connections',
  '/etc/wireguard',
  '/etc/ipsec.secrets',
  '/etc/ppp/chap-secrets',
  '/etc/ppp/pap-secrets',
  '/etc/kubernetes',
  '/etc/rancher',
  '/var/lib/docker',
  '/etc/pki/tls/private',
  '/etc/krb5.keytab',
  '/var/backups/shadow.bak',
  '/var/backups/gshadow.bak',
  '/var/snap/lxd/common/lxd',
  '/var/lib/lxd',
];

/**
 * Workspace-relative paths whose change runs code outside the sandbox: read-only inside.
 * `.git` whole (a folder or a worktree's file): its config, hooks, commondir, modules and
 * worktrees all name programs git runs, and as a mount point it cannot be moved aside.
 * VS Code, direnv, the agent CLIs' project settings (hooks), the cross-tool skills
 * folder (.agents/skills, which Peon and other agents load skills from), Peon's own, CI.
 */
export const PROTECTED_IN_WORKSPACE: readonly string[] = ['.git', '.vscode', '.mcp.json', '.envrc', '.peon', '.husky', '.devcontainer', '.github', '.claude', '.codex', '.pi', '.gemini', '.cursor', '.agents'];

/** Which protected names are files (the rest are folders): what covers one that is missing. */
const PROTECTED_FILES = new Set(['.mcp.json', '.envrc']);
/**
 * The missing names covered while a command runs, because a program reads them at once
 * (git, VS Code's settings and tasks, the agent CLIs' and Peon's own hooks and servers).
 * The rest wait for the person (direnv asks for `direnv allow`, CI runs .github remotely,
 * a dev container is reopened by hand) and are only looked for after.
 */
const COVERED = new Set(['.git', '.vscode', '.mcp.json', '.peon', '.claude', '.codex', '.pi', '.gemini', '.cursor', '.agents']);
/** Folders never searched for the protected names below a workspace folder. */
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

/** The home folder the account has (passwd), whatever $HOME says. */
function accountHome(): string | undefined {
  try {
    return os.userInfo().homedir || undefined;
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
export function secretMasks(home: string | undefined, extra: readonly string[], writable: readonly string[], account = accountHome()): Masks {
  // $HOME and the account's own home folder may differ (HOME set elsewhere): the person's secrets are in either.
  const homes = [...new Set([home, account].filter((h): h is string => h !== undefined && h !== '/'))];
  const candidates = [...homes.flatMap((h) => SECRET_LOCATIONS.map((rel) => path.join(h, rel))), ...SYSTEM_SECRETS, ...extra];
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

/**
 * The folders a command may write: the workspace folders, except one that holds the
 * home folder or a hidden location. Inside such a folder a command could rename a
 * parent of a mask (`mv ~/.config ~/.config-x`), and the next command would find the
 * secret under its new name; so that folder stays read-only.
 */
export function writableFolders(folders: readonly string[], home: string | undefined, masks: Masks): { writable: string[]; held: string[] } {
  const hidden = [...masks.dirs, ...masks.files, ...(home && home !== '/' ? [realOf(home)?.real ?? home] : [])];
  const held = folders.filter((folder) => hidden.some((h) => within(folder, h)));
  return { writable: folders.filter((f) => !held.includes(f)), held };
}

/**
 * The VS Code workspace files (`*.code-workspace`) in `dir`: their settings and tasks
 * apply when one is opened, as `.vscode`'s do. Any name will do, so a new one cannot be
 * covered before a command runs: it is looked for after (commandGuard.ts).
 */
export function codeWorkspaceFiles(dir: string, names = namesIn(dir)): string[] {
  return [...(names ?? [])].filter((name) => name.endsWith('.code-workspace')).map((name) => path.join(dir, name));
}



/** `root`'s subfolders (one level: VS Code's git.repositoryScanMaxDepth), where the protected names are protected too. */
export function subfolders(root: string): string[] {
  try {
    return fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && !NOT_SEARCHED.has(e.name)).map((e) => path.join(root, e.name));
  } catch {
    return [];
  }
}

export interface Protection {
  /** Existing paths, at their real location inside a writable folder: bound read-only. */
  readonly protect: string[];
  /** Missing protected paths in a writable folder: covered before the command where that is safe, and looked for after. */
  readonly absent: Absent[];
  /** Protected names that are symlinks (only their target can be bound): a command that replaces one is found out after. */
  readonly links: { readonly path: string; readonly target: string }[];
  /** The VS Code workspace files there are (codeWorkspaceFiles), each bound read-only: a new one is looked for after. */
  readonly codeWorkspaces: string[];
  /** The folders right below each writable one (their protected names are looked for after the command). */
  readonly subfolders: string[];
}

/**
 * The workspace paths that stay read-only: the protected names in each writable folder
 * and its subfolders, and every repository found at any depth (`gitEntries`) with what
 * its `.git` file and config name (gitProtect.ts). What is missing is returned as
 * absent: a command must not be the one to create it.
 */
export function protectedPaths(writable: readonly string[], gitEntries: readonly string[], home: string | undefined, env: NodeJS.ProcessEnv = {}): Protection {
  const inside = (p: string): boolean => writable.some((w) => within(w, p));
  const out = new Set<string>();
  const absent = new Map<string, Absent>();
  const links: Protection['links'] = [];
  const add = (candidate: string): void => {
    const found = realOf(candidate);
    if (found && inside(found.real)) out.add(found.real);
  };
  const codeWorkspaces: string[] = [];
  const allBelow: string[] = [];
  for (const root of writable) {
    const below = subfolders(root);
    allBelow.push(...below);
    // One listing per folder says which protected names are there: only those are looked up (hundreds of lookups a command otherwise).
    const listed = new Map<string, ReadonlySet<string> | undefined>();
    for (const base of [root, ...below]) {
      const names = namesIn(base);
      listed.set(base, names);
      for (const rel of PROTECTED_IN_WORKSPACE) if (!names || names.has(rel)) add(path.join(base, rel));
      codeWorkspaces.push(...codeWorkspaceFiles(base, names));
    }
    for (const rel of PROTECTED_IN_WORKSPACE) {
      const at = path.join(root, rel);
      const stat = fs.lstatSync(at, { throwIfNoEntry: false });
      if (!stat) absent.set(at, { path: at, dir: !PROTECTED_FILES.has(rel), ...(COVERED.has(rel) ? {} : { later: true }) });
      else if (stat.isSymbolicLink()) links.push({ path: at, target: fs.readlinkSync(at) });
    }
    // One folder down (a folder opened on its own, an agent run there) they matter too: looked for after the command.
    for (const base of below) {
      const names = listed.get(base);
      for (const rel of PROTECTED_IN_WORKSPACE) {
        if (rel === '.git') continue; // a repository anywhere is the repository scan's
        const at = path.join(base, rel);
        if (names ? !names.has(rel) : !fs.lstatSync(at, { throwIfNoEntry: false })) absent.set(at, { path: at, dir: !PROTECTED_FILES.has(rel), later: true });
        else {
          // A link there: only its target is bound read-only, so the link itself is looked at after.
          const stat = fs.lstatSync(at, { throwIfNoEntry: false });
          if (stat?.isSymbolicLink()) links.push({ path: at, target: fs.readlinkSync(at) });
        }
      }
    }
    // HEAD at the top: with objects/ and refs/ beside it, git takes the folder itself for a repository.
    const head = path.join(root, 'HEAD');
    if (fs.lstatSync(head, { throwIfNoEntry: false })) add(head);
    else absent.set(head, { path: head, dir: false });
  }
  const git = gitProtection(gitEntries, home, personHooksPaths(env, home));
  for (const p of git.protect) if (inside(p)) out.add(p);
  for (const a of git.absent) if (inside(a.path) && !fs.lstatSync(a.path, { throwIfNoEntry: false })) absent.set(a.path, a);
  for (const file of codeWorkspaces) add(file);
  return { protect: [...out].sort(), absent: [...absent.values()].sort(byPath), links, codeWorkspaces, subfolders: allBelow };
}

/**
 * Whether bwrap may make `target` as a mount point: its parent exists and is a real
 * folder inside a writable one, reached through no symlink, so the point is made
 * where it is named and nowhere else.
 */
export function coverable(absent: Absent, writable: readonly string[]): boolean {
  if (absent.later) return false;
  const parent = path.dirname(absent.path);
  try {
    return fs.realpathSync.native(parent) === parent && fs.statSync(parent).isDirectory() && writable.some((w) => within(w, parent));
  } catch {
    return false;
  }
}

/**
 * The Unix sockets with a path that programs on this machine listen on now (an
 * ssh-agent, git's credential cache, a database, a desktop VM's daemon), at their real
 * location: each is covered, so a command cannot connect to it. A network namespace
 * parts only the abstract ones. Those under /run and /tmp are out of sight already
 * (their own tmpfs) unless a workspace folder there brings them back; so are those in a
 * hidden folder. `table`: /proc/net/unix's text (tests give their own).
 */
export function hostSockets(writable: readonly string[], hiddenDirs: readonly string[], runtime: readonly string[], table = readSocketTable()): string[] {
  const out = new Set<string>();
  for (const line of table.split('\n').slice(1)) {
    if (out.size >= MAX_SOCKETS) break; // each is two bwrap arguments: thousands would not fit an argument list
    // Num RefCount Protocol Flags Type St Inode Path — the path is the rest of the line, and may hold spaces.
    const named = /^\s*(?:\S+\s+){7}(\/.*)$/.exec(line)?.[1];
    if (!named) continue;
    let real: string;
    try {
      if (!fs.lstatSync(named).isSocket()) continue;
      real = fs.realpathSync.native(named);
    } catch {
      continue; // gone, or never where it was bound
    }
    const covered = ['/tmp', '/run', ...runtime].some((dir) => within(dir, real)) && !writable.some((w) => within(w, real));
    if (covered || hiddenDirs.some((dir) => within(dir, real))) continue;
    out.add(real);
  }
  return [...out].sort();
}

/** The sockets covered at most (a machine with tens of thousands would overflow bwrap's argument list). */
const MAX_SOCKETS = 2000;

function readSocketTable(): string {
  try {
    return fs.readFileSync('/proc/net/unix', 'utf8');
  } catch {
    return '';
  }
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
