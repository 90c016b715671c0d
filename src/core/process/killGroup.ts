// The fallback for killing when bubblewrap cannot run (DESIGN.md §9): as root on cgroup
// v2, a command runs in a cgroup of its own under Peon's, and `cgroup.kill` ends every
// process in it — also those that cleared their environment and left the session, which
// the sweep cannot find. The program moves itself in before it starts (a shell writes
// its own pid, then execs it), so nothing it starts is ever outside. A group left by a
// host that was killed is ended when the next one opens a group.
import fs from 'node:fs';
import path from 'node:path';
import { readProc } from './procfs';

const PREFIX = 'peon-run-';
/** `peon-run-<host pid>.<its start time>-<n>`: a dead or reused host pid names a stale group. */
const NAME = /^peon-run-(\d+)\.(\d+)-\d+$/;
const REMOVE_TRIES = 100;
const REMOVE_EVERY_MS = 50;

let counter = 0;
let staleSwept = false;

/** The cgroup v2 folder this process is in, when there is one (Linux, unified hierarchy). */
export function ownCgroupDir(): string | undefined {
  let cgroup: string;
  let mountinfo: string;
  try {
    cgroup = fs.readFileSync('/proc/self/cgroup', 'utf8');
    mountinfo = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return undefined;
  }
  const rel = /^0::(\/.*)$/m.exec(cgroup)?.[1];
  // mountinfo: id parent major:minor root mount-point options ... - fstype source super-options
  const mount = mountinfo
    .split('\n')
    .map((line) => line.split(' '))
    .find((fields) => fields[fields.indexOf('-') + 1] === 'cgroup2' && fields[3] === '/')?.[4];
  if (rel === undefined || mount === undefined) return undefined;
  return path.join(mount.replace(/\\040/g, ' '), rel);
}

export class KillGroup {
  private constructor(readonly dir: string) {}

  /** A new group under this process's cgroup, or undefined where that cannot be had (not root, no cgroup v2, no cgroup.kill). */
  static open(): KillGroup | undefined {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
    const parent = ownCgroupDir();
    if (!parent) return undefined;
    if (!staleSwept) {
      staleSwept = true;
      sweepStale(parent);
    }
    const self = readProc(process.pid);
    const dir = path.join(parent, `${PREFIX}${process.pid}.${self?.start ?? '0'}-${++counter}`);
    try {
      fs.mkdirSync(dir);
    } catch {
      return undefined;
    }
    if (!fs.existsSync(path.join(dir, 'cgroup.kill'))) {
      fs.rmdirSync(dir); // before Linux 5.14
      return undefined;
    }
    return new KillGroup(dir);
  }

  /** `file args` moving itself into the group first (a failed move still runs it: the sweep remains). */
  wrap(file: string, args: readonly string[]): { file: string; args: string[] } {
    return { file: '/bin/sh', args: ['-c', 'echo $$ > "$0" 2>/dev/null; exec "$@"', path.join(this.dir, 'cgroup.procs'), file, ...args] };
  }

  pids(): number[] {
    try {
      return fs.readFileSync(path.join(this.dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }

  /** SIGKILL to every process in the group, at once, by the kernel. */
  kill(): void {
    killDir(this.dir);
  }

  /** Ends what is left and removes the group once it is empty (the kernel reaps asynchronously). */
  remove(): void {
    this.kill();
    removeWhenEmpty(this.dir, REMOVE_TRIES);
  }
}

let available: boolean | undefined;

/** Whether commands here get kill groups (asked once: a group is made and removed). */
export function killGroupAvailable(): boolean {
  if (available === undefined) {
    const group = KillGroup.open();
    group?.remove();
    available = group !== undefined;
  }
  return available;
}

function killDir(dir: string): void {
  try {
    fs.writeFileSync(path.join(dir, 'cgroup.kill'), '1');
  } catch {
    // removed already
  }
}

function removeWhenEmpty(dir: string, tries: number): void {
  try {
    fs.rmdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EBUSY' && tries > 0) setTimeout(() => removeWhenEmpty(dir, tries - 1), REMOVE_EVERY_MS).unref();
  }
}

/** Groups whose host is gone (killed before it could end them): their processes end now. */
function sweepStale(parent: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const match = NAME.exec(name);
    if (!match) continue;
    if (readProc(Number(match[1]))?.start === match[2]) continue; // its host still runs
    const dir = path.join(parent, name);
    killDir(dir);
    removeWhenEmpty(dir, REMOVE_TRIES);
  }
}
