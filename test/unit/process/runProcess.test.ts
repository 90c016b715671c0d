import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readProc } from '../../../src/core/process/procfs';
import { runProcess, type RunOptions } from '../../../src/core/process/runProcess';
import { stripTerminalEscapes } from '../../../src/core/process/terminalText';
import { tempDir } from '../tools/toolTestContext';

// The process-group promises of DESIGN.md §4, each proven on real processes: survivors
// are looked for in /proc by the pid a command reports, never by name.

function bash(command: string, overrides: Partial<RunOptions> = {}) {
  return runProcess({
    file: '/bin/bash',
    args: ['-c', command],
    cwd: tempDir(),
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    maxOutputBytes: 64 * 1024,
    ...overrides,
  });
}

const alive = (pid: number): boolean => readProc(pid) !== undefined;
const waitFor = async (check: () => boolean, ms = 5000): Promise<boolean> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
};

describe('runProcess', () => {
  test('exit code, combined output, cwd and a non-interactive environment', async () => {
    const cwd = tempDir();
    const r = await bash('echo out; echo err >&2; pwd; echo "$GIT_TERMINAL_PROMPT $PAGER $GIT_EDITOR"; exit 3', { cwd });
    expect(r).toMatchObject({ exitCode: 3, signal: null, timedOut: false, cancelled: false });
    expect(r.output.text.split('\n').sort()).toEqual(['', '0 cat true', cwd, 'err', 'out'].sort());
  });

  test('stdin is /dev/null: cat and read return at once', async () => {
    const r = await bash('cat; read x; echo "read:$?"');
    expect(r.exitCode).toBe(0);
    expect(r.output.text).toBe('read:1\n');
  });

  test('yes: output bounded (head and tail kept), killed at the deadline', async () => {
    const r = await bash('yes', { timeoutMs: 500, maxOutputBytes: 1000 });
    expect(r).toMatchObject({ timedOut: true, signal: 'SIGKILL', exitCode: null });
    expect(r.output.truncated).toBe(true);
    expect(r.output.totalBytes).toBeGreaterThan(100_000);
    expect(r.output.text).toMatch(/^(y\n)+\n\[… \d+ bytes of output omitted …\]\n(y\n)*y?\n?$/);
  });

  test('sleep 100 & echo done: returns promptly; the background child does not survive', async () => {
    const r = await bash('sleep 100 & echo $!; echo done');
    const [pid] = r.output.text.split('\n').map(Number);
    expect(r.output.text).toMatch(/\ndone\n$/);
    expect(r.exitCode).toBe(0);
    expect(r.durationMs).toBeLessThan(5000); // bounded draining: the child holds the pipes for 100 s
    expect(await waitFor(() => !alive(pid!))).toBe(true);
  });

  test('setsid sleep 999 &: a descendant that left the group is swept at the end', async () => {
    const dir = tempDir();
    // One setsid child, and one double fork whose parent is gone at once (reparented away from us).
    const r = await bash(`setsid sleep 999 & echo $! > ${dir}/a; (setsid sh -c 'echo $$ > ${dir}/b; exec sleep 998' &); sleep 0.3`);
    expect(r.exitCode).toBe(0);
    for (const name of ['a', 'b']) {
      const pid = Number(fs.readFileSync(path.join(dir, name), 'utf8'));
      expect(await waitFor(() => !alive(pid)), `${name}: pid ${pid} survived`).toBe(true);
    }
  });

  test("cancel during trap '' TERM; sleep 100: TERM first, KILL after the grace period", async () => {
    const controller = new AbortController();
    const log = path.join(tempDir(), 'signals');
    const pending = bash(`trap 'echo TERM >> ${log}' TERM; sleep 100 & wait; sleep 100 & wait`, { signal: controller.signal, killGraceMs: 1000 });
    await new Promise((r) => setTimeout(r, 300));
    const aborted = Date.now();
    controller.abort();
    const r = await pending;
    expect(r).toMatchObject({ cancelled: true, timedOut: false, signal: 'SIGKILL' });
    expect(fs.readFileSync(log, 'utf8')).toBe('TERM\n'); // the trap saw TERM once; it went on, so KILL came
    expect(Date.now() - aborted).toBeGreaterThanOrEqual(1000);
  });

  test("cancel during trap '' TERM; sleep 100 (TERM ignored by both): killed after the grace, nothing survives", async () => {
    const controller = new AbortController();
    const dir = tempDir();
    const pending = bash(`trap '' TERM; echo $$ > ${dir}/shell; sleep 100 & echo $! > ${dir}/sleep; wait`, { signal: controller.signal, killGraceMs: 800 });
    await waitFor(() => fs.existsSync(path.join(dir, 'sleep')) && fs.readFileSync(path.join(dir, 'sleep'), 'utf8').endsWith('\n'));
    const started = Date.now();
    controller.abort();
    const r = await pending;
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    expect(r).toMatchObject({ cancelled: true, signal: 'SIGKILL' });
    for (const name of ['shell', 'sleep']) expect(alive(Number(fs.readFileSync(path.join(dir, name), 'utf8')))).toBe(false);
  });

  test('a child in its own process group (job control) but still in the session is swept', async () => {
    const dir = tempDir();
    const r = await bash(`set -m; sleep 997 & echo $! > ${dir}/pid; unset PEON_PROCESS_RUN; sleep 996 & echo $! > ${dir}/pid2`);
    expect(r.exitCode).toBe(0);
    for (const name of ['pid', 'pid2']) expect(await waitFor(() => !alive(Number(fs.readFileSync(path.join(dir, name), 'utf8'))))).toBe(true);
  });

  test('a command that finished while its pipes drain is not reported as timed out', async () => {
    const r = await bash('sleep 100 & sleep 0.5; exit 0', { timeoutMs: 600 });
    expect(r).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
  });

  test('a deadline reached through the call\'s signal (AbortSignal.timeout) is a timeout: KILL at once', async () => {
    const r = await bash("trap '' TERM; sleep 100", { signal: AbortSignal.timeout(300) });
    expect(r).toMatchObject({ timedOut: true, cancelled: false, signal: 'SIGKILL' });
    expect(r.durationMs).toBeLessThan(1500);
  });

  test('a character split around a write to the other stream stays whole', async () => {
    const r = await bash(`printf '\\xe6\\x9d'; printf E >&2; printf '\\xb1\\n'`);
    expect(r.output.text).not.toContain('\uFFFD');
    expect(r.output.text).toContain('東');
    expect(r.output.text).toContain('E');
  });

  test('a command that exits on TERM is done at once when cancelled', async () => {
    const controller = new AbortController();
    const pending = bash('sleep 100', { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    const r = await pending;
    expect(r).toMatchObject({ cancelled: true, signal: 'SIGTERM', timedOut: false });
  });

  test('multi-byte characters split across chunks come out whole; invalid bytes become U+FFFD', async () => {
    const live: string[] = [];
    const r = await bash(`printf '\\xe6\\x9d'; sleep 0.1; printf '\\xb1\\xe4\\xba\\xac\\n'; printf 'bad:\\xff\\n'`, { onOutput: (t) => live.push(t) });
    expect(r.output.text).toBe('東京\nbad:\uFFFD\n');
    expect(live.join('')).toBe('東京\nbad:\uFFFD\n');
  });

  test('escape sequences are stripped from what is shown', async () => {
    const live: string[] = [];
    await bash(`printf '\\033[31mred\\033[0m \\033]0;title\\007ok\\n'`, { onOutput: (t) => live.push(t) });
    expect(live.join('')).toBe('red ok\n');
    expect(stripTerminalEscapes('\u001b[2J\u001b[Hclear\u0007')).toBe('clear');
  });

  test('a missing executable rejects with ENOENT', async () => {
    await expect(runProcess({ file: '/no/such/tool', args: [], cwd: tempDir(), timeoutMs: 1000, signal: new AbortController().signal, maxOutputBytes: 100 })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
