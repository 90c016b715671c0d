// Timing helpers shared by the benchmarks: every case runs its reference in the same
// run, warm-up first, then the median of several runs (PERF.md).
import { spawnSync } from 'node:child_process';

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Wall-clock milliseconds of a command, median of `runs` after one warm-up. Its output
 * is read through a pipe, as a real consumer would: ripgrep, for one, goes quiet when
 * stdout is /dev/null, which would flatter the reference.
 */
export function timeCommand(command, args, { runs = 7, cwd, env, okCodes = [0] } = {}) {
  const once = () => {
    const started = process.hrtime.bigint();
    const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
    if (!okCodes.includes(result.status)) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  once();
  return median(Array.from({ length: runs }, once));
}

/** Milliseconds of an async function in this process, median of `runs` after one warm-up. */
export async function timeAsync(fn, { runs = 7, before } = {}) {
  const once = async () => {
    await before?.();
    const started = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  await once();
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  return median(times);
}

/**
 * Milliseconds of two async functions, run alternately (`runs` each, after one warm-up of
 * each), as [median of a, median of b]: on a busy two-core machine a slow stretch then
 * falls on both sides instead of on whichever ran second.
 */
export async function timePair(a, b, { runs = 7 } = {}) {
  const once = async (fn) => {
    const started = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  await once(a);
  await once(b);
  const times = [[], []];
  for (let i = 0; i < runs; i++) {
    times[0].push(await once(a));
    times[1].push(await once(b));
  }
  return [median(times[0]), median(times[1])];
}

/** One row of the table: a measured time against its reference, judged by a ratio budget. */
export function ratioRow(measured, reference, budget, note = '') {
  const ratio = measured / reference;
  return {
    reference: `${reference.toFixed(2)} ms`,
    measured: `${measured.toFixed(2)} ms`,
    ratio,
    budget: `≤ ${budget}×`,
    pass: ratio <= budget,
    note,
  };
}
