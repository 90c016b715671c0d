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
import { findBwrap } from './findBwrap';
import { runProbe, type ProbeResult } from './probe';
import { missingProtected, mountPointInTmp, protectedPaths, resolverDirs, runtimeDirs, secretMasks, within } from './sandboxPlan';
import { secretVariables } from './secretEnv';

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
export interface PreparedCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly view: SandboxView;
  /** Whether it runs in bubblewrap (a failure to start there re-probes). */
  readonly sandboxed: boolean;
  /** It writes in the workspace folders (workspace-write): a protected path it creates is moved aside (afterCommand). */
  readonly writesWorkspace?: boolean;
}

export class SandboxUnavailableError extends Error {}

export class CommandSandbox {
  private tmp: string | undefined;
  private probed: { key: string; result: Promise<ProbeResult & { proc: boolean }> } | undefined;

  constructor(private readonly options: CommandSandboxOptions) {}

  private get home(): string {
    return this.options.home ?? this.options.env.HOME ?? os.homedir();
  }

  /** The conversation's private /tmp, made on first use (0700, under the host's temp folder). */
  private privateTmp(): string {
    if (!this.tmp) {
      this.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-sandbox-tmp-'));
      live.add(this);
    }
    return this.tmp;
  }

  private plan(bwrap: string, settings: SandboxSettings, cwd: string, argv: readonly string[], proc: boolean, env: NodeJS.ProcessEnv): SandboxPlan {
    const writable = this.options.folders;
    const masks = secretMasks(this.home, this.options.privateDirs ?? [], settings.mode === 'workspace-write' ? writable : []);
    return {
      bwrap,
      mode: settings.mode === 'read-only' ? 'read-only' : 'workspace-write',
      network: settings.network,
      proc,
      writable,
      tmp: this.privateTmp(),
      runtime: runtimeDirs(env),
      hiddenDirs: masks.dirs,
      hiddenFiles: masks.files,
      protect: settings.mode === 'workspace-write' ? protectedPaths(writable) : [],
      resolver: settings.network ? resolverDirs() : [],
      unset: secretVariables(env),
      cwd,
      argv,
    };
  }

  /** Whether the real argv runs here; probed once per settings, again after `reprobe`. */
  private probe(bwrap: string, settings: SandboxSettings, env: NodeJS.ProcessEnv): Promise<ProbeResult & { proc: boolean }> {
    const key = JSON.stringify([bwrap, settings.mode, settings.network]);
    if (this.probed?.key === key) return this.probed.result;
    const cwd = this.options.folders[0] ?? '/';
    const attempt = async (proc: boolean): Promise<ProbeResult & { proc: boolean }> => {
      const plan = this.plan(bwrap, settings, cwd, ['true'], proc, env);
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
    if (!bwrap) return this.refuseIfRequired(settings, plain('bubblewrap is not installed (Debian/Ubuntu: sudo apt-get install bubblewrap)'));
    const probe = await this.probe(bwrap, settings, env);
    if (!probe.ok) return this.refuseIfRequired(settings, plain(probe.reason));
    // Not a login shell: a profile could export again the secrets taken out of its environment.
    const plan = this.plan(bwrap, settings, cwd, ['/bin/bash', '--noprofile', '--norc', '-c', command], probe.proc, env);
    for (const dir of [...(plan.mode === 'workspace-write' ? plan.writable : []), cwd]) mountPointInTmp(plan.tmp, dir);
    const args = sandboxArgs(plan);
    return { file: bwrap, args, env: cleanEnv(env, plan.unset), view: describeSandbox(args, this.home), sandboxed: true, writesWorkspace: plan.mode === 'workspace-write' };
  }

  /** Right before it runs: the protected paths missing (bubblewrap can only cover what exists). */
  missingBefore(prepared: PreparedCommand): string[] {
    return prepared.sandboxed && prepared.writesWorkspace ? missingProtected(this.options.folders) : [];
  }

  /**
   * After a sandboxed command: a protected path it created (a new `.git` whose config runs
   * programs when git does, a `.vscode`, …) is moved aside, never deleted; what to tell.
   */
  afterCommand(missing: readonly string[]): string[] {
    const notes: string[] = [];
    for (const created of missing) {
      if (!fs.existsSync(created) && !fs.lstatSync(created, { throwIfNoEntry: false })) continue;
      const aside = `${created}.peon-blocked-${Date.now().toString(36)}`;
      try {
        fs.renameSync(created, aside);
        notes.push(`[${path.basename(created)} was created by this sandboxed command and moved to ${path.basename(aside)}: it can make programs run outside the sandbox (git, VS Code or an agent CLI run what it names). Create it with the file tools, or run the command outside the sandbox; both ask the person.]`);
      } catch (error) {
        notes.push(`[${path.basename(created)} was created by this sandboxed command and could not be moved aside (${error instanceof Error ? error.message : String(error)}): check it before running git or opening it in an editor.]`);
      }
    }
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
    live.delete(this);
  }
}

/** Every sandbox holding a private /tmp: the host's exit removes them. */
const live = new Set<CommandSandbox>();
process.once('exit', () => {
  for (const sandbox of live) sandbox.dispose();
});

/** `env` without the variables the sandbox removes. */
function cleanEnv(env: NodeJS.ProcessEnv, unset: readonly string[]): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of unset) delete out[name];
  return out;
}
