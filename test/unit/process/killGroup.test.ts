// The kill group (src/core/process/killGroup.ts): where bubblewrap cannot run, as root on
// cgroup v2, a command's own cgroup ends what left its session with `env -i setsid` —
// the hole the sweep leaves, shown by a control run without it. As an ordinary user
// there is no kill group. Processes are found by a tag in their command line.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { KillGroup, killGroupAvailable, ownCgroupDir } from '../../../src/core/process/killGroup';
import { runProcess } from '../../../src/core/process/runProcess';
import { sleepers, uniqueTag } from '../../processWatch';
import { CLI, waitUntil } from '../cliHarness';
import { escapes } from '../sandbox/sandboxKit';
import { tempDir } from '../tools/toolTestContext';

const asRoot = process.getuid?.() === 0;
const leftovers: number[] = [];
afterAll(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

const run = (command: string, killGroup: boolean, signal = new AbortController().signal) =>
  runProcess({ file: '/bin/bash', args: ['-c', command], cwd: tempDir(), timeoutMs: 30_000, signal, maxOutputBytes: 64 * 1024, killGroup, drainGraceMs: 100 });

/** A sleep that clears its environment, leaves the session and is orphaned at once. */
const hidden = (shell: string): string => `(env -i setsid sh -c "sleep 1003.${shell} >/dev/null 2>&1 &" &)`;

/** Peon's own groups under its cgroup. */
const groups = (): string[] => fs.readdirSync(ownCgroupDir()!).filter((name) => name.startsWith('peon-run-'));

describe('kill groups', () => {
  test('only root on cgroup v2 gets one; an ordinary user does not', () => {
    expect(killGroupAvailable()).toBe(asRoot && ownCgroupDir() !== undefined);
    if (!asRoot) expect(KillGroup.open()).toBeUndefined();
  });

  test.runIf(asRoot)('a double fork under env -i setsid outlives the call without one (the control), and is gone with one', async () => {
    const control = uniqueTag();
    // Out of the session, with no marker, an orphan before any sample of the tree: the sweep cannot find it.
    await run(hidden(control.shell), false);
    await waitUntil(() => sleepers(control.tag).length === 1, 'the hidden sleep runs on');
    leftovers.push(...sleepers(control.tag));

    const before = groups();
    const { tag, shell } = uniqueTag();
    const r = await run(`${hidden(shell)}; ${escapes(shell)}; sleep 0.3; cat /proc/self/cgroup`, true);
    expect(r.output.text).toMatch(/^0::\/.*peon-run-\d+\.\d+-\d+$/m);
    await waitUntil(() => sleepers(tag).length === 0, 'every sleep has ended');
    await waitUntil(() => groups().length === before.length, 'the group is removed');
  });

  test.runIf(asRoot)('Stop ends them too', async () => {
    const { tag, shell } = uniqueTag();
    const stop = new AbortController();
    const call = run(`${escapes(shell)}; sleep 1002.${shell}`, true, stop.signal);
    await waitUntil(() => sleepers(tag).length === 3, 'the three sleeps run');
    stop.abort();
    expect(await call).toMatchObject({ cancelled: true });
    await waitUntil(() => sleepers(tag).length === 0, 'every sleep has ended');
  });

  test.runIf(asRoot)("a SIGKILLed CLI's group is ended by the next command, with the sandbox off", async () => {
    const ws = tempDir('peon-kg-ws-');
    const config = path.join(tempDir('peon-kg-cfg-'), 'config.json');
    fs.writeFileSync(config, JSON.stringify({ 'peon.sandbox.mode': 'off' }));
    const cli = (command: string) =>
      spawn(process.execPath, [CLI, 'tool', 'bash', '--workspace', ws, '--approve', 'all', '--config', config, '--input', JSON.stringify({ command })], {
        env: { ...process.env, PEON_STATE_DIR: tempDir('peon-kg-state-') },
        stdio: 'ignore',
      });
    const { tag, shell } = uniqueTag();
    const first = cli(`${escapes(shell)}; sleep 1002.${shell}`);
    await waitUntil(() => sleepers(tag).length === 3, 'the three sleeps run');
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    // Nothing ended them: their host died at once.
    expect(sleepers(tag)).toHaveLength(3);
    const next = cli('true');
    await new Promise((resolve) => next.once('exit', resolve));
    await waitUntil(() => sleepers(tag).length === 0, 'the next command ended them');
  });
});
