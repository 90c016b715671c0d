// What a command's card says about how it will run (DESIGN.md §9), read back from the
// bwrap arguments that will run, never from the settings that produced them.

export type SandboxState = 'sandboxed' | 'network' | 'unsandboxed';

/** The card's line: green (sandboxed), amber (network on), red (not sandboxed). */
export interface SandboxView {
  readonly state: SandboxState;
  readonly text: string;
}

const SHOWN_HIDDEN = 4;

/** `~/.ssh` for a path in the home folder. */
function tilde(p: string, home: string | undefined): string {
  if (home && home !== '/' && (p === home || p.startsWith(`${home}/`))) return `~${p.slice(home.length)}`;
  return p;
}

/** The card's line for bwrap `args`, or for a command run without them. */
export function describeSandbox(args: readonly string[], home: string | undefined): SandboxView {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  const writes: string[] = [];
  const hidden: string[] = [];
  let tmp = false;
  let proc = false;
  let unset = 0;
  for (let i = 0; i < options.length; i++) {
    const flag = options[i];
    if (flag === '--bind') {
      const [src, dest] = [options[i + 1]!, options[i + 2]!];
      // A folder of its own mounted as /tmp is private; /tmp itself bound is the host's.
      if (dest === '/tmp' && src !== '/tmp') tmp = true;
      else writes.push(tilde(dest, home));
      i += 2;
    } else if (flag === '--tmpfs') {
      const dir = options[++i]!;
      if (dir !== '/run' && !dir.startsWith('/run/')) hidden.push(tilde(dir, home));
    } else if (flag === '--ro-bind' || flag === '--dev-bind') {
      const [src, dest] = [options[i + 1]!, options[i + 2]!];
      if (src === '/dev/null') hidden.push(tilde(dest, home));
      i += 2;
    } else if (flag === '--proc') {
      proc = true;
      i++;
    } else if (flag === '--unsetenv') {
      unset++;
      i++;
    } else if (flag === '--setenv') i += 2;
    else if (flag === '--chdir' || flag === '--cap-drop') i++;
  }
  const network = !options.includes('--unshare-net');
  const where = [...writes, ...(tmp ? ['private /tmp'] : [])];
  const parts = [
    `writes: ${where.length > 0 ? where.join(', ') : 'nothing'}${writes.length === 0 && tmp ? ' only' : ''}`,
    // With the network on, this machine's own services answer too: its localhost ports, and X11's and D-Bus's abstract sockets.
    network ? "reaches this machine's services (localhost, X11, D-Bus)" : 'network off',
  ];
  // The person's own locations (~/…) first: those are what they look for.
  hidden.sort((a, b) => Number(b.startsWith('~')) - Number(a.startsWith('~')));
  if (hidden.length > 0) parts.push(`hidden: ${hidden.slice(0, SHOWN_HIDDEN).join(', ')}${hidden.length > SHOWN_HIDDEN ? `, … (+${hidden.length - SHOWN_HIDDEN})` : ''}`);
  if (unset > 0) parts.push(`${unset} secret variable${unset === 1 ? '' : 's'} removed`);
  if (!proc) parts.push("degraded: the host's /proc shows through");
  return { state: network ? 'network' : 'sandboxed', text: `${network ? 'Sandboxed, network ON' : 'Sandboxed'} — ${parts.join(' · ')}` };
}

/** The red line: not sandboxed, and why. */
export function unsandboxedView(reason: string): SandboxView {
  return { state: 'unsandboxed', text: `NOT sandboxed — ${reason}: full access to your files and network` };
}
