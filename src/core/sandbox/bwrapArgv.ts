// The bubblewrap argument vectors (DESIGN.md §9), as pure functions of a plan: what the
// command may write, what is hidden, whether it has a network. One builder, so the argv
// that runs is the argv the card is rendered from (describe.ts) and the one the tests
// snapshot. Order matters: `/` read-only first, then the writable binds, then the masks
// and protections that cover parts of them.

export type SandboxMode = 'workspace-write' | 'read-only' | 'off';

export interface SandboxPlan {
  /** The absolute path of bwrap. */
  readonly bwrap: string;
  readonly mode: Exclude<SandboxMode, 'off'>;
  readonly network: boolean;
  /** Mount a fresh /proc (false after a probe found it cannot be mounted: the host's shows through). */
  readonly proc: boolean;
  /** Canonical workspace folders: writable in workspace-write. */
  readonly writable: readonly string[];
  /** Workspace folders that are not writable but lie under /tmp, which the private /tmp would hide: bound back read-only. */
  readonly visible?: readonly string[];
  /** The conversation's private folder, mounted as /tmp. */
  readonly tmp: string;
  /** Runtime folders outside /run to cover with an empty tmpfs (the user's XDG_RUNTIME_DIR). */
  readonly runtime: readonly string[];
  /** Folders (a tmpfs over each) and files (/dev/null over each) the command may not see. */
  readonly hiddenDirs: readonly string[];
  readonly hiddenFiles: readonly string[];
  /** Workspace paths that run code outside the sandbox when changed (.git/hooks, .vscode): read-only. */
  readonly protect: readonly string[];
  /** Protected paths that do not exist yet, covered read-only (by an empty folder or file) so the command cannot create them. */
  readonly cover?: readonly { readonly path: string; readonly dir: boolean }[];
  /** The empty, read-only folder and file that cover them. */
  readonly empty?: { readonly dir: string; readonly file: string };
  /** Read-only binds over the tmpfs on /run that name resolution needs when the network is on. */
  readonly resolver: readonly string[];
  /**
   * A read-only script bash runs before the command (BASH_ENV): it closes the descriptors
   * above 2 the shell inherited, then forgets itself, in the command's own shell.
   */
  readonly shellStart?: string;
  /** Environment variables removed (secrets). */
  readonly unset: readonly string[];
  readonly cwd: string;
  /** What runs inside: `/bin/bash -lc <command>`. */
  readonly argv: readonly string[];
}

/** Where the shell's start script is seen inside (on the tmpfs over /run). */
export const SHELL_START = '/run/peon-shell-start';
/** The person's variables that would keep the start script from closing what the shell inherited. */
const SHELL_START_GUARDS = ['POSIXLY_CORRECT', 'SHELLOPTS', 'BASHOPTS', 'GLOBIGNORE'];

/** bwrap's arguments for a command (everything after the bwrap executable). */
export function sandboxArgs(plan: SandboxPlan): string[] {
  const args = ['--new-session', '--die-with-parent', '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (!plan.network) args.push('--unshare-net');
  // As root a command could otherwise unmount its masks and remount `/` writable.
  args.push('--cap-drop', 'ALL');
  args.push('--ro-bind', '/', '/', '--dev', '/dev');
  if (plan.proc) args.push('--proc', '/proc');
  // Unix sockets (docker's, D-Bus, agents') are reachable through a read-only bind: cover them.
  args.push('--tmpfs', '/run');
  for (const dir of plan.runtime) args.push('--tmpfs', dir);
  if (plan.shellStart) {
    args.push('--ro-bind', plan.shellStart, SHELL_START, '--setenv', 'BASH_ENV', SHELL_START);
    // What would make bash skip the script (posix mode reads no BASH_ENV) or its loop match nothing (noglob, GLOBIGNORE).
    for (const name of SHELL_START_GUARDS) args.push('--unsetenv', name);
  }
  if (plan.network) for (const dir of plan.resolver) args.push('--ro-bind', dir, dir);
  args.push('--bind', plan.tmp, '/tmp', '--setenv', 'TMPDIR', '/tmp');
  if (plan.mode === 'workspace-write') for (const dir of plan.writable) args.push('--bind', dir, dir);
  for (const dir of plan.visible ?? []) args.push('--ro-bind', dir, dir);
  for (const p of plan.protect) args.push('--ro-bind', p, p);
  if (plan.empty) for (const c of plan.cover ?? []) args.push('--ro-bind', c.dir ? plan.empty.dir : plan.empty.file, c.path);
  for (const dir of plan.hiddenDirs) args.push('--tmpfs', dir);
  for (const file of plan.hiddenFiles) args.push('--ro-bind', '/dev/null', file);
  for (const name of plan.unset) args.push('--unsetenv', name);
  args.push('--chdir', plan.cwd, '--', ...plan.argv);
  return args;
}

/**
 * The kill-only wrapper of delegated agents and stdio MCP servers: a PID namespace and
 * die-with-parent, nothing else, so their own sandboxes still start (no /proc of its
 * own: an inner bwrap mounts one) and nothing they spawn outlives them. An ordinary
 * user needs a user namespace to get a PID namespace.
 */
export function killOnlyArgs(asRoot: boolean, argv: readonly string[]): string[] {
  return ['--new-session', '--die-with-parent', ...(asRoot ? [] : ['--unshare-user']), '--unshare-pid', '--dev-bind', '/', '/', '--', ...argv];
}
