// What Linux's /proc says about processes: enough to find every descendant of a command,
// including the ones that left its process group (setsid, double fork).
import fs from 'node:fs';

export interface ProcInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  /** Start time in clock ticks since boot: with the pid, it names one process for ever. */
  readonly start: string;
}

export function readProc(pid: number): ProcInfo | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: parse after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z') return undefined; // a zombie is already dead
  return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]), start: fields[19] ?? '' };
}

export function listPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Processes whose environment carries `KEY=value` (each of our commands gets a unique marker). */
export function pidsWithEnv(key: string, value: string): number[] {
  const needle = Buffer.from(`${key}=${value}\0`);
  const found: number[] = [];
  for (const pid of listPids()) {
    try {
      const environ = fs.readFileSync(`/proc/${pid}/environ`);
      if (environ.indexOf(needle) === 0 || environ.includes(Buffer.concat([Buffer.from([0]), needle]))) found.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

function allProcs(): ProcInfo[] {
  return listPids()
    .map(readProc)
    .filter((p): p is ProcInfo => p !== undefined);
}

/** Every live process in the tree under `root` (not `root` itself). */
export function descendantsOf(root: number): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of allProcs()) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p);
    else children.set(p.ppid, [p]);
  }
  const found: ProcInfo[] = [];
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    for (const child of children.get(queue[i]!) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Processes in the session `sid` leads (a command started detached leads its own). */
export function pidsInSession(sid: number): number[] {
  return allProcs()
    .filter((p) => p.session === sid)
    .map((p) => p.pid);
}

export function groupAlive(pgrp: number): boolean {
  return listPids().some((pid) => readProc(pid)?.pgrp === pgrp);
}
