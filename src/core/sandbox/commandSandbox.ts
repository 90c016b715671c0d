// A conversation's sandbox for bash (DESIGN.md §9): how each command will run, decided
// when the call is assessed — the bwrap argv (with the conversation's private /tmp), or
// the reason it runs unsandboxed — so the card is rendered from what will run. The probe
// runs once with the real argv and `true`, and again after a command failed to start in
// bubblewrap. The platform interface is this class; Linux's bubblewrap is behind it, and
// any other platform reports that it has no sandbox.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SettingValues } from '../settings';
import { sandboxArgs, type SandboxMode, type SandboxPlan } from './bwrapArgv';
import { describeSandbox, unsandboxedView, type SandboxView } from './describe';
import { findBwrap, noBwrapReason } from './findBwrap';
import { runProbe, type ProbeResult } from './probe';
import { guardOf, settle, type CommandGuard } from './commandGuard';
import { RepoScan, RepoScanIncomplete, type RepoScanResult } from './repoScan';
import { clearLeftovers, journalCovers, ownPrefix } from './leftovers';
import { coverable, hostSockets, mountPointInTmp, protectedPaths, resolverDirs, runtimeDirs, SECRET_LOCATIONS, secretMasks, within, writableFolders, } from './sandboxPlan';
import { credentialPaths, secretVariables } from './secretEnv';

export interface SandboxSettings {
  readonly mode: SandboxMode;
  readonly network: boolean;
  readonly required: boolean;
}

/** The sandbox's settings (user or machine scope only). */
export function sandboxSettings(values: SettingValues): SandboxSettings {
  return { mode: values['peon.sandbox.mode'] ?? 'workspace-write', network: values['peon.sandbox.network'] ?? false, required: values['peon.sandbox.required'] ?? false };
}

export interface CommandSandboxOptions {
  /** Read on every command: a changed setting applies to the next card. */
  readonly settings: () => SandboxSettings;
  /** Canonical workspace folders. */
  readonly folders: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Peon's own state (sessions, trash, secrets), hidden like the person's credentials. */
  readonly privateDirs?: readonly string[];
  readonly home?: string;
  /** The platform (default: this one's); only Linux has a sandbox. */
  readonly platform?: NodeJS.Platform;
}

/** A command ready to run: the program, its arguments and environment, and what the card says. */
export type { CommandGuard } from './commandGuard';

export interface PreparedCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly view: SandboxView;
  /** Whether it runs in bubblewrap (a failure to start there re-probes). */
  readonly sandboxed: boolean;
  /** The plan it was built from: built again right before it runs (beforeCommand). */
  readonly plan?: SandboxPlan;
}


export class SandboxUnavailableError extends Error {}

/**
 * The sandboxed shell first closes every descriptor above 2 it was handed (one the
 * person's shell or the editor left open to a file bubblewrap hides, a pipe of the
 * host's), then runs the command, verbatim, as its `-c` script: bash runs this script
 * (BASH_ENV, bound read-only) before it, in the same process, and the script unsets
 * BASH_ENV so no shell the command starts runs it again. Not a login shell: a profile
 * could export again the secrets taken out of its environment.
 */
const SHELL_START = 'builtin unset BASH_ENV; for f in /proc/self/fd/*; do f=${f##*/}; builtin [ "$f" -gt 2 ] && builtin eval "exec $f>&-"; done; builtin unset f\n';

export class CommandSandbox {
  private tmp: string | undefined;
  private empty: { root: string; dir: string; file: string; shellStart: string } | undefined;
  private readonly repos = new RepoScan();
  private probed: { key: string; result: Promise<ProbeResult & { proc: boolean }> } | undefined;

  constructor(private readonly options: CommandSandboxOptions) {
    if (!leftoversCleared) {
      leftoversCleared = true;
      clearLeftovers(); // what a Peon killed while a command ran left behind
    }
  }

  private get home(): string {
    return this.options.home ?? this.options.env.HOME ?? os.homedir();
  }

  /** The conversation's private /tmp, made on first use (0700, under the host's temp folder). */
  private privateTmp(): string {
    if (!this.tmp) {
      this.tmp = fs.mkdtempSync(path.join(os.tmpdir(), ownPrefix('tmp')));
      live.add(this);
    }
    return this.tmp;
  }

  /** An empty folder and file, read-only, that cover a protected path before a command could create it. */
  private emptyCovers(): { dir: string; file: string; shellStart: string } {
    if (!this.empty) {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), ownPrefix('empty')));
      const dir = path.join(root, 'dir');
      const file = path.join(root, 'file');
      const shellStart = path.join(root, 'shell-start');
      fs.mkdirSync(dir, { mode: 0o555 });
      fs.writeFileSync(file, '', { mode: 0o444 });
      fs.writeFileSync(shellStart, SHELL_START, { mode: 0o444 });
      this.empty = { root, dir, file, shellStart };
      live.add(this);
    }
    return this.empty;
  }

  private plan(bwrap: string, settings: SandboxSettings, cwd: string, argv: readonly string[], proc: boolean, env: NodeJS.ProcessEnv): SandboxPlan {
    return this.planned(bwrap, settings, cwd, argv, proc, env).plan;
  }

  /** What a command may write, and what it may not see. */
  private reach(settings: SandboxSettings, env: NodeJS.ProcessEnv): { masks: ReturnType<typeof secretMasks>; writable: string[] } {
    const writing = settings.mode === 'workspace-write';
    const extra = [...(this.options.privateDirs ?? []), ...credentialPaths(env, SECRET_LOCATIONS)];
    const masks = secretMasks(this.home, extra, writing ? this.options.folders : []);
    return { masks, writable: writing ? writableFolders(this.options.folders, this.home, masks).writable : [] };
  }

  /** The plan, and (`scan`: the repositories found right before the command runs) what afterCommand compares with. */
  private planned(bwrap: string, settings: SandboxSettings, cwd: string, argv: readonly string[], proc: boolean, env: NodeJS.ProcessEnv, scan?: RepoScanResult, reach = this.reach(settings, env)): { plan: SandboxPlan; guard: CommandGuard } {
    const { masks, writable } = reach;
    // What to protect is looked for right before the command runs (beforeCommand); the card's line does not depend on it.
    const repos = scan && writable.length > 0 ? scan.repos : [];
    const guarded = scan && writable.length > 0 ? protectedPaths(writable, repos, this.home, env) : { protect: [], absent: [], links: [], codeWorkspaces: [], subfolders: [] };
    const cover = guarded.absent.filter((a) => coverable(a, writable));
    const guard = guardOf(guarded, repos, writable, scan?.unsearched ?? [], cover);
    const plan: SandboxPlan = {
      bwrap,
      mode: writable.length > 0 ? 'workspace-write' : 'read-only',
      network: settings.network,
      proc,
      writable,
      visible: this.options.folders.filter((f) => within('/tmp', f) && !writable.includes(f)),
      tmp: this.privateTmp(),
      runtime: runtimeDirs(env),
      hiddenDirs: masks.dirs,
      hiddenFiles: [...new Set([...masks.files, ...hostSockets(writable, masks.dirs, runtimeDirs(env))])].sort(),
      protect: guarded.protect,
      cover,
      empty: this.emptyCovers(),
      shellStart: this.emptyCovers().shellStart,
      resolver: settings.network ? resolverDirs() : [],
      unset: secretVariables(env),
      cwd,
      argv,
    };
    return { plan, guard };
  }

  /** Whether the real argv runs here; probed once per settings, again after `reprobe`. */
  private probe(bwrap: string, settings: SandboxSettings, env: NodeJS.ProcessEnv): Promise<ProbeResult & { proc: boolean }> {
    const key = JSON.stringify([bwrap, settings.mode, settings.network]);
    if (this.probed?.key === key) return this.probed.result;
    const cwd = this.options.folders[0] ?? '/';
    const attempt = async (proc: boolean): Promise<ProbeResult & { proc: boolean }> => {
      const plan = this.plan(bwrap, settings, cwd, ['true'], proc, env);
      for (const dir of [...plan.writable, ...(plan.visible ?? []), cwd]) mountPointInTmp(plan.tmp, dir);
      return { ...(await runProbe(bwrap, sandboxArgs(plan), cleanEnv(env, plan.unset))), proc };
    };
    const result = attempt(true).then((first) => (!first.ok && first.cause === 'proc' ? attempt(false) : first));
    this.probed = { key, result };
    return result;
  }

  /** Forget the probe: the next command probes again (after one failed to start in bubblewrap). */
  reprobe(): void {
    this.probed = undefined;
  }

  /**
   * How `command` will run in `cwd`. `outside`: the model's reason to run it outside the
   * sandbox (after it failed there). Throws SandboxUnavailableError when the sandbox is
   * required and cannot be had.
   */
  async prepare(command: string, cwd: string, outside?: string): Promise<PreparedCommand> {
    const settings = this.options.settings();
    const env = this.options.env;
    const plain = (reason: string): PreparedCommand => ({ file: '/bin/bash', args: ['-lc', command], env, view: unsandboxedView(reason), sandboxed: false });
    if (settings.mode === 'off') return this.refuseIfRequired(settings, plain('the sandbox is off (peon.sandbox.mode)'));
    if (outside !== undefined) return this.refuseIfRequired(settings, plain(`run outside the sandbox at the model's request: "${outside}"`));
    if ((this.options.platform ?? process.platform) !== 'linux') return this.refuseIfRequired(settings, plain('no sandbox on this platform (only Linux has one)'));
    const covering = this.options.folders.find((folder) => ['/tmp', '/run', ...runtimeDirs(env)].some((dir) => within(folder, dir)));
    if (covering) return this.refuseIfRequired(settings, plain(`the workspace folder ${covering} holds /tmp, /run or your runtime folder, which the sandbox must replace`));
    const bwrap = findBwrap(env, this.options.folders);
    if (!bwrap) return this.refuseIfRequired(settings, plain(noBwrapReason(env, this.options.folders)));
    const probe = await this.probe(bwrap, settings, env);
    if (!probe.ok) return this.refuseIfRequired(settings, plain(probe.reason));
    const plan = this.plan(bwrap, settings, cwd, ['/bin/bash', '--noprofile', '--norc', '-c', command], probe.proc, env);
    for (const dir of [...(plan.mode === 'workspace-write' ? plan.writable : []), ...(plan.visible ?? []), cwd]) mountPointInTmp(plan.tmp, dir);
    const args = sandboxArgs(plan);
    return { file: bwrap, args, env: cleanEnv(env, plan.unset), view: describeSandbox(args, this.home), sandboxed: true, plan };
  }

  /**
   * Right before it runs (the card may have waited): the plan built again from what is
   * there now — the repositories, what they name, what is missing and is covered — and
   * what afterCommand compares with.
   */
  async beforeCommand(prepared: PreparedCommand): Promise<{ prepared: PreparedCommand; guard?: CommandGuard }> {
    const before = prepared.plan;
    if (!prepared.sandboxed || !before || before.mode !== 'workspace-write') return { prepared };
    const settings = { mode: before.mode, network: before.network, required: false } as const;
    const reach = this.reach(settings, this.options.env);
    let scan: RepoScanResult;
    try {
      scan = await this.repos.find(reach.writable);
    } catch (error) {
      // Not knowing every repository there is, Peon could not tell one the command made: it does not run.
      if (error instanceof RepoScanIncomplete) throw new SandboxUnavailableError(`${error.message}, so a repository the command made could go unseen: nothing was run.`);
      throw error;
    }
    const planned = this.planned(before.bwrap, settings, before.cwd, before.argv, before.proc, this.options.env, scan, reach);
    const { plan } = planned;
    // Should Peon die while the command runs, the next one removes the covers (leftovers.ts).
    const guard = { ...planned.guard, release: journalCovers(plan.tmp, plan.cover ?? []) };
    for (const dir of [...plan.writable, ...(plan.visible ?? []), plan.cwd]) mountPointInTmp(plan.tmp, dir);
    const args = sandboxArgs(plan);
    return { prepared: { ...prepared, args, env: cleanEnv(this.options.env, plan.unset), plan }, ...(plan.mode === 'workspace-write' ? { guard } : {}) };
  }

  /**
   * After a sandboxed command: the empty covers bubblewrap left are removed; a protected
   * path it still made (where it could not be covered), a protected symlink it replaced
   * and a `.git` it made anywhere are moved aside under a name it cannot guess, never
   * deleted. What to tell, on the command's card.
   */
  async afterCommand(guard: CommandGuard | undefined): Promise<string[]> {
    if (!guard) return [];
    const notes = await settle(guard, () => this.repos.find(guard.writable, { reopen: true }));
    guard.release?.();
    return notes;
  }

  /**
   * How commands will run now (the probe runs, once per settings): what a face says when a
   * conversation opens, before any command asks. Refused (required, unavailable): red.
   */
  async status(): Promise<SandboxView> {
    try {
      return (await this.prepare('true', this.options.folders[0] ?? '/')).view;
    } catch (error) {
      if (error instanceof SandboxUnavailableError) return { state: 'unsandboxed', text: error.message };
      throw error;
    }
  }

  private refuseIfRequired(settings: SandboxSettings, prepared: PreparedCommand): PreparedCommand {
    if (settings.required && !prepared.sandboxed) {
      throw new SandboxUnavailableError(`${prepared.view.text.replace(/: full access.*$/, '')}, and peon.sandbox.required is on: nothing was run.`);
    }
    return prepared;
  }

  /** The private /tmp goes with the conversation. */
  dispose(): void {
    if (this.tmp) fs.rmSync(this.tmp, { recursive: true, force: true });
    this.tmp = undefined;
    if (this.empty) {
      fs.chmodSync(this.empty.dir, 0o755);
      fs.rmSync(this.empty.root, { recursive: true, force: true });
    }
    this.empty = undefined;
    live.delete(this);
  }
}

/** Every sandbox holding a private /tmp: the host's exit removes them. */
const live = new Set<CommandSandbox>();
let leftoversCleared = false;
process.once('exit', () => {
  for (const sandbox of live) sandbox.dispose();
});

/** `env` without the variables the sandbox removes. */
function cleanEnv(env: NodeJS.ProcessEnv, unset: readonly string[]): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of unset) delete out[name];
  return out;
}
