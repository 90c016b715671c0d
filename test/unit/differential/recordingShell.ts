// The real /bin/bash -lc, made to tell what it started: a login profile in a throwaway
// HOME sets PATH to a folder of recorder shims (one per command name the generator
// uses, and one per bash builtin) and disables every builtin but `cd`, so whatever bash
// runs, builtins included, is a program that writes its argv to a log. Programs planted
// in the workspace (`10/ls`, reached when PATH is reassigned to `10`) record too, under
// their own path. Nothing real runs; what the shell itself does (redirections) shows
// as a change to the folder, which a snapshot compares.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const NAMES = ['ls', 'cat', 'echo', 'pwd', 'head', 'tail', 'wc', 'git', 'date', 'rm', 'touch', 'printf', 'bash', 'sh', 'curl', 'env', 'x', 'a', 'b', 'hi', 'sudo', 'xargs', 'time', 'nohup'];

export interface Started {
  /** The program's path as it was started ($0). */
  readonly program: string;
  readonly argv: readonly string[];
}

export interface Lane {
  readonly workspace: string;
  readonly home: string;
  readonly shims: string;
  /** Runs `command` as the bash tool would, and returns what it started and whether the folder changed. */
  run(command: string): Promise<{ records: Started[]; changed: boolean }>;
}

/** One file per started process, so the programs of a pipeline never interleave their records. */
function recorder(log: string): string {
  return `#!/bin/sh\nprintf '%s\\0' "$0" "$@" > '${log}'/$$\n`;
}

/** Whether process group `pgid` has a member that is not a zombie (one whose parent is gone waits for init to reap it). */
function liveMembers(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

/** A snapshot of every entry below `dir`: name, kind, size, mode, modification time, link target. */
function snapshot(dir: string, skip: ReadonlySet<string>): string {
  const lines: string[] = [];
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(at, entry.name);
      if (skip.has(full)) continue;
      const stat = fs.lstatSync(full);
      lines.push(`${full} ${stat.mode} ${stat.size} ${stat.mtimeMs} ${entry.isSymbolicLink() ? fs.readlinkSync(full) : ''}`);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return lines.join('\n');
}

const WORKSPACE_FILES: Readonly<Record<string, string>> = { 'README.md': '# readme\nline two\n', 'sub/notes.txt': 'notes\n', 'victim/keep.txt': 'keep\n', 'log.txt': '' };

/** A lane under `dir`: its own shims, log, HOME and workspace, so lanes run side by side. */
export function makeLane(dir: string): Lane {
  const shims = path.join(dir, 'shims');
  const home = path.join(dir, 'home');
  const workspace = path.join(dir, 'ws');
  const tmp = path.join(dir, 'tmp');
  const log = path.join(dir, 'records');
  for (const d of [shims, home, workspace, tmp, log]) fs.mkdirSync(d, { recursive: true });
  const builtins = execFileSync('/bin/bash', ['-c', 'compgen -b'], { encoding: 'utf8' }).split('\n').filter((b) => b && b !== 'cd');
  for (const name of new Set([...NAMES, ...builtins.filter((b) => /^[a-z]+$/.test(b))])) fs.writeFileSync(path.join(shims, name), recorder(log), { mode: 0o755 });
  // The profile runs after /etc/profile: only shims on PATH, no builtin but cd (`enable` goes last).
  const disable = builtins.filter((b) => b !== 'enable').map((b) => `'${b}'`).join(' ');
  fs.writeFileSync(path.join(home, '.bash_profile'), `PATH='${shims}'\nenable -n ${disable}\nenable -n enable\n`);
  const populate = (): void => {
    for (const [name, content] of Object.entries(WORKSPACE_FILES)) {
      fs.mkdirSync(path.dirname(path.join(workspace, name)), { recursive: true });
      fs.writeFileSync(path.join(workspace, name), content);
    }
    for (const planted of ['10', '11', 'bin']) {
      for (const name of ['ls', 'cat', 'echo', 'git', 'pwd', 'true']) {
        fs.mkdirSync(path.join(workspace, planted), { recursive: true });
        fs.writeFileSync(path.join(workspace, planted, name), recorder(log), { mode: 0o755 });
      }
    }
  };
  populate();
  const skip = new Set([log, tmp, shims]);
  let before = snapshot(dir, skip);
  return {
    workspace,
    home,
    shims,
    async run(command) {
      for (const file of fs.readdirSync(log)) fs.rmSync(path.join(log, file));
      const child = spawn('/bin/bash', ['-lc', command], {
        cwd: workspace,
        env: { HOME: home, PATH: '/usr/bin:/bin', TMPDIR: tmp, TERM: 'dumb', LC_ALL: 'C.UTF-8' },
        stdio: 'ignore',
        detached: true,
      });
      await new Promise<void>((resolve) => {
        child.on('error', () => resolve());
        child.on('exit', () => resolve());
      });
      // Background jobs (`ls &`) may still be writing: wait for the group's live members, bounded.
      for (let i = 0; i < 500 && liveMembers(child.pid!); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
      const records = fs
        .readdirSync(log)
        .map((file) => fs.readFileSync(path.join(log, file), 'utf8'))
        .map((entry) => {
          const [program = '', ...rest] = entry.split('\0');
          rest.pop(); // the empty field after the last NUL
          return { program, argv: [path.basename(program), ...rest] };
        });
      const after = snapshot(dir, skip);
      const changed = after !== before;
      if (changed) {
        for (const entry of fs.readdirSync(dir)) if (![path.basename(shims), path.basename(tmp), path.basename(log), 'home'].includes(entry)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
        for (const entry of fs.readdirSync(home)) if (entry !== '.bash_profile') fs.rmSync(path.join(home, entry), { recursive: true, force: true });
        fs.mkdirSync(workspace, { recursive: true });
        populate();
        before = snapshot(dir, skip);
      }
      return { records, changed };
    },
  };
}
