// Whether bubblewrap can run here (DESIGN.md §9): the real argv run with `true`, and a
// failure named by its cause — not installed, user namespaces blocked, /proc not
// mountable (then it is tried without a /proc of its own, degraded).
import { execFile } from 'node:child_process';

export type ProbeCause = 'not-installed' | 'userns-blocked' | 'proc' | 'platform' | 'failed';

export type ProbeResult = { readonly ok: true } | { readonly ok: false; readonly cause: ProbeCause; readonly reason: string };

const PROBE_TIMEOUT_MS = 5000;

const USERNS_BLOCKED = /setting up uid map: Permission denied|Failed RTM_NEWADDR|No permissions to create (a )?new namespace|Creating new namespace failed|unprivileged_userns_clone|Operation not permitted.*namespace|clone\(\) failed|uid map/i;

/** Why a bwrap run that wrote `stderr` failed, as the card and the status say it. */
export function classifyFailure(stderr: string, code: string | number | null | undefined): { cause: ProbeCause; reason: string } {
  if (code === 'ENOENT') return { cause: 'not-installed', reason: 'bubblewrap is not installed (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)' };
  const line = stderr.split('\n').find((l) => l.startsWith('bwrap:'))?.trim() ?? stderr.trim().split('\n')[0] ?? '';
  if (/Can't mount proc/i.test(stderr)) return { cause: 'proc', reason: `bubblewrap cannot mount /proc here (${line})` };
  if (USERNS_BLOCKED.test(stderr)) {
    return { cause: 'userns-blocked', reason: `user namespaces are blocked here (${line}): Ubuntu's AppArmor restriction, a container, or a Flatpak or Snap VS Code` };
  }
  return { cause: 'failed', reason: `bubblewrap failed to start (${line || `exit ${String(code)}`})` };
}

/** Runs `bwrap args` (whose command is `true`) and says whether it worked. */
export function runProbe(bwrap: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(bwrap, [...args], { env, timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' }, (error, _stdout, stderr) => {
      if (!error) return resolve({ ok: true });
      const code = (error as NodeJS.ErrnoException).code ?? (error as { status?: number }).status;
      resolve({ ok: false, ...classifyFailure(stderr ?? '', code) });
    });
  });
}
