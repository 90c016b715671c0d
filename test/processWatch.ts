// Watching processes from outside any PID namespace (Linux /proc), for tests that check a
// process tree is gone: by a tag in a sleep's command line, since a pid a process writes
// from inside a sandbox is that namespace's, not ours.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

/** Live processes running `sleep 100N.<tag>`, by pid. */
export function sleepers(tag: string): number[] {
  const pids: number[] = [];
  const wanted = new RegExp(`^sleep\\u0000100\\d\\.${tag}\\u0000$`);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const state = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /, '')[0];
      if (wanted.test(cmdline) && state !== 'Z') pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * A unique tag, and how a command writes it without spelling it (`$((a+b))`), so the
 * command line of bash, bwrap and the CLI never holds it: only the sleeps do.
 */
export function uniqueTag(): { tag: string; shell: string } {
  const tag = 100000 + randomBytes(3).readUIntBE(0, 3);
  const a = Math.floor(tag / 3);
  return { tag: String(tag), shell: `$((${a}+${tag - a}))` };
}
