// The kill-only wrapper (DESIGN.md §9) for delegated agents and stdio MCP servers: the
// program runs as PID 1's child in a PID namespace of its own that dies with Peon, so
// nothing it starts outlives it — also what leaves its session with `env -i setsid`, and
// also when Peon is killed. Nothing else is taken from it: its own sandbox still starts.
// Where bubblewrap cannot run, the program runs as before (its process tree swept).
import { killOnlyArgs } from './bwrapArgv';
import { findBwrap } from './findBwrap';
import { runProbe, type ProbeResult } from './probe';

const probes = new Map<string, Promise<ProbeResult>>();

export interface Wrapped {
  readonly file: string;
  readonly args: readonly string[];
  /** Whether the kill-only wrapper is in place (else why not, for the card). */
  readonly wrapped: boolean;
  readonly reason?: string;
}

/** `file args` inside the kill-only wrapper when bubblewrap runs here, else as it is. */
export async function killOnly(file: string, args: readonly string[], env: NodeJS.ProcessEnv, folders: readonly string[] = []): Promise<Wrapped> {
  if (process.platform !== 'linux') return { file, args, wrapped: false, reason: 'no PID namespace on this platform' };
  const bwrap = findBwrap(env, folders);
  if (!bwrap) return { file, args, wrapped: false, reason: 'bubblewrap is not installed' };
  const asRoot = process.getuid?.() === 0;
  let probe = probes.get(bwrap);
  if (!probe) {
    probe = runProbe(bwrap, killOnlyArgs(asRoot, ['true']), env);
    probes.set(bwrap, probe);
  }
  const result = await probe;
  if (!result.ok) {
    probes.delete(bwrap); // probed again next time: the failure may pass
    return { file, args, wrapped: false, reason: result.reason };
  }
  return { file: bwrap, args: killOnlyArgs(asRoot, [file, ...args]), wrapped: true };
}
