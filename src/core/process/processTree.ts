// Everything a started process may leave behind (DESIGN.md §4 "Process groups"): its
// group; every process in the session it leads (a child that only changed its group
// stays in it); every process carrying its run's environment marker (one that left the
// session keeps it); every descendant seen while the leader lived; and, where it runs in
// a kill group (killGroup.ts), everything in that cgroup. A command of bash and a stdio
// MCP server are ended the same way, through this.
import { randomBytes } from 'node:crypto';
import type { KillGroup } from './killGroup';
import { descendantsOf, pidsInSession, pidsWithEnv, readProc } from './procfs';

export const RUN_MARKER = 'PEON_PROCESS_RUN';

/** Every tree in flight, so a dying host can take its processes with it. */
const active = new Set<ProcessTree>();
process.once('exit', () => {
  for (const tree of active) tree.signal('SIGKILL');
});

export class ProcessTree {
  /** The environment variable every process of this run inherits: `{ [RUN_MARKER]: marker }`. */
  readonly marker = randomBytes(8).toString('hex');
  private leaderPid: number | undefined;
  private leaderGone = false;
  private readonly known = new Map<number, string>(); // descendants seen while the leader lived: pid -> start time
  private sampler: NodeJS.Timeout | undefined;

  /** `group`: the cgroup the leader moves itself into (its argv wrapped by `group.wrap`). */
  constructor(private readonly group?: KillGroup) {}

  get env(): Record<string, string> {
    return { [RUN_MARKER]: this.marker };
  }

  /** The leader is running (spawned detached: a new session and group led by it); sample its tree every `everyMs`. */
  started(pid: number | undefined, everyMs = 200): void {
    this.leaderPid = pid;
    if (pid === undefined) return;
    active.add(this);
    this.sample();
    this.sampler = setInterval(() => this.sample(), everyMs);
    this.sampler.unref();
  }

  /** The leader exited: its pid may soon be someone else's, so its tree is no longer sampled by pid. */
  leaderExited(): void {
    this.sample();
    this.leaderGone = true;
    clearInterval(this.sampler);
  }

  private sample(): void {
    if (this.leaderPid === undefined || this.leaderGone) return;
    for (const p of descendantsOf(this.leaderPid)) this.known.set(p.pid, p.start);
  }

  /**
   * Sends `signal` to everything of this run; how many processes besides the group it
   * found. `spareLeader`: not to the leader or its group — bubblewrap, whose death would
   * end the command inside at once, before its grace to clean up.
   */
  signal(signal: NodeJS.Signals, spareLeader = false): number {
    const leader = this.leaderPid;
    if (leader === undefined) return 0;
    this.sample();
    const targets = new Set<number>([...pidsWithEnv(RUN_MARKER, this.marker), ...pidsInSession(leader), ...(this.group?.pids() ?? [])]);
    if (signal === 'SIGKILL' && !spareLeader) this.group?.kill();
    for (const [pid, start] of this.known) if (readProc(pid)?.start === start) targets.add(pid);
    targets.delete(process.pid);
    if (spareLeader) targets.delete(leader);
    else {
      try {
        process.kill(-leader, signal);
      } catch {
        // the group is empty
      }
    }
    for (const pid of targets) {
      if (!spareLeader && readProc(pid)?.pgrp === leader) continue; // signalled once already, with the group
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
    return targets.size;
  }

  /** KILLs everything, repeated while anything is found (a process may fork while it is being killed); then forgets the run. */
  sweep(): void {
    for (let pass = 0; pass < 5 && this.signal('SIGKILL') > 0; pass++);
    this.release();
  }

  /** Nothing of this run is left to end (or it was ended): the host's exit need not; the kill group goes. */
  release(): void {
    this.group?.remove();
    clearInterval(this.sampler);
    active.delete(this);
  }
}
