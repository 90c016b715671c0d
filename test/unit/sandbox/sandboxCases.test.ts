// The Sandbox cases of SECURITY.md, each through the built `peon` command as a person
// would run it, as root and as an ordinary user (TESTING.md "Sandbox"); every assertion
// is on the host side: what exists, what a listener heard, which processes are alive.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { waitUntil } from '../cliHarness';
import { sleepers, uniqueTag } from '../../processWatch';
import { cleanUp, escapes, makeRunners, result, runCli, SECRET_KEY, SECRET_VARS, varTmp, workspaceFor, type Runner } from './sandboxKit';

const runners = makeRunners();
afterAll(cleanUp);
const asRoot = process.getuid?.() === 0;
const OFF = { 'peon.sandbox.mode': 'off' };

/** A listener on loopback (or a Unix socket) that counts who reached it. */
async function listener(at?: string): Promise<{ port: number; heard: () => number; close: () => void }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => (at ? server.listen(at, resolve) : server.listen(0, '127.0.0.1', resolve)));
  if (at) fs.chmodSync(at, 0o777);
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, heard: () => count, close: () => server.close() };
}

describe.each(runners)('as $name', (runner: Runner) => {
  test('writes reach only the workspace and the private /tmp: not $HOME, /etc, a symlink out, or the host /tmp', async () => {
    const ws = workspaceFor(runner);
    fs.symlinkSync(runner.outside, path.join(ws, 'out'));
    const mark = `peon-sbx-${path.basename(ws)}`;
    const command = [
      'echo in > inside.txt',
      `echo x > "$HOME/${mark}"`,
      `echo x > /etc/${mark}`,
      'echo x > out/escaped.txt',
      `echo t > /tmp/${mark} && cat /tmp/${mark}`,
    ].join('; ');
    const r = await result(runCli(runner, ws, 'bash', { command }));
    expect(r).toMatchObject({ ok: true, data: { sandbox: 'sandboxed' } });
    expect(fs.readFileSync(path.join(ws, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(fs.existsSync(path.join(runner.home, mark))).toBe(false);
    expect(fs.existsSync(`/etc/${mark}`)).toBe(false);
    expect(fs.readdirSync(runner.outside)).toEqual([]);
    expect(fs.existsSync(`/tmp/${mark}`)).toBe(false); // its /tmp is its own
    expect(r.output).toContain('t\n'); // where it could write
    expect(r.output.match(/Read-only file system/g)?.length).toBe(3);
  });

  test("~/.ssh, ~/.netrc, Peon's own state and secret variables are out of sight", async () => {
    const ws = workspaceFor(runner);
    const r = await result(runCli(runner, ws, 'bash', { command: 'cat ~/.ssh/id_test; ls -A ~/.ssh; cat ~/.netrc; ls -A "$PEON_STATE_DIR"; echo ---; env' }, { config: { 'peon.bash.defaultTimeoutSeconds': 41 } }));
    expect(r.ok).toBe(true);
    expect(r.output).not.toContain(SECRET_KEY);
    expect(r.output).not.toContain('peon-netrc-secret');
    expect(r.output).not.toContain('config.json'); // the CLI's state folder (which holds its --config here) is an empty tmpfs
    const env = r.output.slice(r.output.indexOf('---'));
    for (const [name, value] of Object.entries(SECRET_VARS)) {
      expect(env).not.toContain(`${name}=`);
      expect(env).not.toContain(value);
    }
    expect(env).toContain(`HOME=${runner.home}`); // the rest of the environment is there
    // The control: unsandboxed, the same command sees them.
    const off = await result(runCli(runner, ws, 'bash', { command: 'cat ~/.ssh/id_test; env' }, { config: OFF }));
    expect(off.output).toContain(SECRET_KEY);
    expect(off.output).toContain('GITHUB_TOKEN=');
  });

  test('no network: a loopback listener hears nothing, and only lo exists', async () => {
    const ws = workspaceFor(runner);
    const server = await listener();
    try {
      const command = `exec 3<>/dev/tcp/127.0.0.1/${server.port} && echo CONNECTED; cat /proc/net/dev`;
      const r = await result(runCli(runner, ws, 'bash', { command }));
      expect(r.output).not.toContain('CONNECTED');
      expect(server.heard()).toBe(0);
      const interfaces = r.output.split('\n').filter((l: string) => /^\s*\w+:/.test(l)).map((l: string) => l.trim().split(':')[0]);
      expect(interfaces).toEqual(['lo']);
      // The control: the listener is reachable from outside the sandbox.
      const off = await result(runCli(runner, ws, 'bash', { command }, { config: OFF }));
      expect(off.output).toContain('CONNECTED');
      expect(server.heard()).toBe(1);
    } finally {
      server.close();
    }
  });

  test.runIf(asRoot)('a Unix socket under /run is unreachable', async () => {
    const ws = workspaceFor(runner);
    const dir = fs.mkdtempSync('/run/peon-sbx-');
    fs.chmodSync(dir, 0o755);
    const sock = path.join(dir, 's.sock');
    const server = await listener(sock);
    try {
      const command = `${process.execPath} -e "require('net').connect('${sock}').on('connect', () => console.log('CONNECTED')).on('error', (e) => console.log(e.code))"`;
      const r = await result(runCli(runner, ws, 'bash', { command }));
      expect(r.output).toContain('ENOENT');
      expect(server.heard()).toBe(0);
      const off = await result(runCli(runner, ws, 'bash', { command }, { config: OFF }));
      expect(off.output).toContain('CONNECTED');
      expect(server.heard()).toBe(1);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('secrets a login profile exports do not come back; sockets in ~/.docker are out of reach', async () => {
    const ws = workspaceFor(runner);
    const profile = path.join(runner.home, '.profile');
    fs.writeFileSync(profile, 'export ANTHROPIC_API_KEY=sk-ant-from-profile\n');
    fs.mkdirSync(path.join(runner.home, '.docker/desktop'), { recursive: true });
    const sock = path.join(runner.home, '.docker/desktop/docker.sock');
    const server = await listener(sock);
    try {
      const command = `echo "key=$ANTHROPIC_API_KEY"; ${process.execPath} -e "require('net').connect('${sock}').on('connect', () => console.log('CONNECTED')).on('error', (e) => console.log(e.code))"`;
      const r = await result(runCli(runner, ws, 'bash', { command }));
      expect(r.output).toMatch(/^key=$/m);
      expect(r.output).toContain('ENOENT');
      expect(server.heard()).toBe(0);
      // The control: unsandboxed (a login shell), both are there.
      const off = await result(runCli(runner, ws, 'bash', { command }, { config: OFF }));
      expect(off.output).toContain('key=sk-ant-from-profile');
      expect(off.output).toContain('CONNECTED');
    } finally {
      server.close();
      fs.rmSync(profile, { force: true });
      fs.rmSync(path.join(runner.home, '.docker'), { recursive: true, force: true });
    }
  });

  test("a descriptor the host inherited, git's credential-cache socket and a credential file a variable names are out of reach", async () => {
    const ws = workspaceFor(runner);
    const sockDir = path.join(runner.home, '.cache/git/credential');
    fs.mkdirSync(sockDir, { recursive: true });
    const server = await listener(path.join(sockDir, 'socket'));
    const kube = path.join(runner.outside, 'kubeconfig');
    fs.writeFileSync(kube, 'token: kube-peontest\n');
    fs.chownSync(kube, runner.uid, runner.gid);
    // The CLI starts with descriptor 200 open on the person's key, as a shell or an editor may leave one.
    const under = ['/bin/bash', '-c', 'exec 200<"$0"; exec "$@"', path.join(runner.home, '.ssh/id_test')];
    try {
      const command = `cat <&200; echo "fd=$?"; cat "${kube}"; ${process.execPath} -e "require('net').connect('${path.join(sockDir, 'socket')}').on('connect', () => console.log('CONNECTED')).on('error', (e) => console.log(e.code))"`;
      const r = await result(runCli(runner, ws, 'bash', { command }, { under, env: { KUBECONFIG: kube } }));
      expect(r.output).toMatch(/^fd=1$/m);
      expect(r.output).not.toContain(SECRET_KEY);
      expect(r.output).not.toContain('kube-peontest');
      expect(r.output).not.toContain('CONNECTED');
      expect(server.heard()).toBe(0);
      // The control: unsandboxed, all three are there.
      const off = await result(runCli(runner, ws, 'bash', { command }, { under, env: { KUBECONFIG: kube }, config: OFF }));
      expect(off.output).toContain(SECRET_KEY);
      expect(off.output).toContain('kube-peontest');
      expect(off.output).toContain('CONNECTED');
    } finally {
      server.close();
      fs.rmSync(path.join(runner.home, '.cache'), { recursive: true, force: true });
    }
  });

  test('the shell closes what it inherited before the command, in the command\'s own shell: no BASH_ENV left for the shells it starts, and the person\'s BASH_ENV is not run', async () => {
    const ws = workspaceFor(runner);
    const rc = path.join(runner.outside, 'bash_env');
    fs.writeFileSync(rc, 'echo PERSON-BASH-ENV-RAN\n');
    fs.chownSync(rc, runner.uid, runner.gid);
    const command = 'echo "env=[$BASH_ENV] f=[$f] args=[$#]"; bash -c \'echo "nested=[$BASH_ENV]"\'; ( exec 7>&1; bash -c "echo seven >&7" )';
    const r = await result(runCli(runner, ws, 'bash', { command }, { env: { BASH_ENV: rc } }));
    expect(r.output).toMatch(/^env=\[\] f=\[\] args=\[0\]$/m);
    expect(r.output).toMatch(/^nested=\[\]$/m);
    // A descriptor the command opens itself reaches the shells it starts.
    expect(r.output).toMatch(/^seven$/m);
    expect(r.output).not.toContain('PERSON-BASH-ENV-RAN');
    // What would make bash skip the script (posix mode) or its loop match nothing is not taken in: a descriptor the host inherited stays closed.
    const under = ['/bin/bash', '-c', 'exec 200<"$0"; exec "$@"', path.join(runner.home, '.ssh/id_test')];
    for (const env of [{ POSIXLY_CORRECT: '1' }, { SHELLOPTS: 'noglob' }, { GLOBIGNORE: '*' }] as Record<string, string>[]) {
      const held = await result(runCli(runner, ws, 'bash', { command: 'cat <&200; echo "fd=$?"' }, { under, env }));
      expect(held.output, JSON.stringify(env)).toMatch(/^fd=1$/m);
      expect(held.output).not.toContain(SECRET_KEY);
    }
  });

  test('umount of a mask and remount of / read-write are refused', async () => {
    const ws = workspaceFor(runner);
    const mark = `/peon-sbx-${path.basename(ws)}`;
    const command = `umount ~/.ssh; echo "umount=$?"; mount -o remount,rw /; echo "remount=$?"; mount -o remount,rw,bind /; echo "bind=$?"; touch ${mark}; cat ~/.ssh/id_test`;
    const r = await result(runCli(runner, ws, 'bash', { command }));
    expect(r.output).toMatch(/umount=[1-9]/);
    expect(r.output).toMatch(/remount=[1-9]/);
    expect(r.output).toMatch(/bind=[1-9]/);
    expect(r.output).not.toContain(SECRET_KEY);
    expect(fs.existsSync(mark)).toBe(false);
  });

  test('env -i setsid and a double fork are gone when the call ends', async () => {
    const ws = workspaceFor(runner);
    const { tag, shell } = uniqueTag();
    const r = await result(runCli(runner, ws, 'bash', { command: `${escapes(shell)}; sleep 1002.${shell} & sleep 0.5; ps -eo args | grep -c '^sleep 100'` }));
    expect(r.ok).toBe(true);
    expect(r.output).toMatch(/^3$/m); // all three were running inside
    await waitUntil(() => sleepers(tag).length === 0, 'every sleep has ended');
  });

  test.each([
    ['is cancelled (SIGINT to the CLI)', 'SIGINT'],
    ['is cut off: the process that started it is killed with SIGKILL', 'SIGKILL'],
  ] as const)('… and when the call %s', async (_, signal) => {
    const ws = workspaceFor(runner);
    const { tag, shell } = uniqueTag();
    const run = runCli(runner, ws, 'bash', { command: `${escapes(shell)}; sleep 1002.${shell}` });
    await waitUntil(() => sleepers(tag).length === 3, 'the three sleeps run');
    run.child.kill(signal);
    if (signal === 'SIGINT') expect(await result(run)).toMatchObject({ ok: true, data: { cancelled: true } });
    else await run.done;
    await waitUntil(() => sleepers(tag).length === 0, 'every sleep has ended');
  });

  test('a delegated agent runs in the kill-only wrapper: its own bwrap starts, and what it leaves behind dies with a SIGKILLed host', async () => {
    const ws = workspaceFor(runner);
    const inner = ['/usr/bin/bwrap', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-user', '--unshare-pid', '--unshare-net', '--cap-drop', 'ALL', '--', '/bin/echo'];
    const nested = await result(runCli(runner, ws, 'agent_pi', { prompt: 'inner sandbox started' }, { config: { 'peon.agents.pi.command': inner } }));
    expect(nested).toMatchObject({ ok: true, output: 'inner sandbox started\n[exit code 0]' });
    const { tag, shell } = uniqueTag();
    const run = runCli(runner, ws, 'agent_pi', { prompt: 'agent' }, { config: { 'peon.agents.pi.command': ['/bin/bash', '-c', `${escapes(shell)}; sleep 1002.${shell}`] } });
    await waitUntil(() => sleepers(tag).length === 3, 'the agent and what it left behind run');
    run.child.kill('SIGKILL');
    await run.done;
    await waitUntil(() => sleepers(tag).length === 0, 'every sleep has ended');
  });

  test('user namespaces blocked: the red NOT-sandboxed card asks even where a rule allows, and required refuses', async () => {
    const ws = workspaceFor(runner);
    const blocked = ['/usr/bin/bwrap', '--unshare-user', '--disable-userns', '--dev-bind', '/', '/', '--'];
    const allow = { 'peon.permission.rules': { bash: { 'echo *': 'allow' } } };
    const red = await result(runCli(runner, ws, 'bash', { command: 'echo hi' }, { under: blocked, config: allow, approve: 'none' }));
    expect(red).toMatchObject({ ok: false, permission: { decision: 'ask', grantable: [], sessionGrants: [], answer: 'denied' } });
    expect(red.permission.reasons[0]).toMatch(/^NOT sandboxed — user namespaces are blocked here \(bwrap: .*\).*: full access to your files and network$/);
    // The same rule allows it where the sandbox runs.
    const green = await result(runCli(runner, ws, 'bash', { command: 'echo hi' }, { config: allow, approve: 'none' }));
    expect(green).toMatchObject({ ok: true, permission: { decision: 'allow' }, data: { sandbox: 'sandboxed' } });
    const refused = await result(runCli(runner, ws, 'bash', { command: 'echo hi' }, { under: blocked, config: { 'peon.sandbox.required': true } }));
    expect(refused).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(refused.error.message).toMatch(/user namespaces are blocked.*peon\.sandbox\.required is on: nothing was run/);
  });

  test('bubblewrap missing: the red card names how to install it', async () => {
    const ws = workspaceFor(runner);
    const missing = ['/usr/bin/bwrap', '--dev-bind', '/', '/', '--ro-bind', '/dev/null', '/usr/bin/bwrap', '--'];
    const r = await result(runCli(runner, ws, 'bash', { command: 'echo hi' }, { under: missing, approve: 'none' }));
    expect(r).toMatchObject({ ok: false, permission: { decision: 'ask', grantable: [] } });
    expect(r.permission.reasons[0]).toMatch(/^NOT sandboxed — bubblewrap is not installed \(Debian\/Ubuntu: sudo apt-get install bubblewrap\)/);
  });
});

test('the private /tmp is the conversation\'s: a later command sees what an earlier one left, the host never does', async () => {
  const { CommandSandbox } = await import('../../../src/core/sandbox/commandSandbox');
  const ws = varTmp('peon-sbx-ws-', process.getuid!(), process.getgid!());
  const sandbox = new CommandSandbox({ settings: () => ({ mode: 'workspace-write', network: false, required: false }), folders: [ws], env: process.env });
  const { runProcess } = await import('../../../src/core/process/runProcess');
  const run = async (command: string) => {
    const p = await sandbox.prepare(command, ws);
    return (await runProcess({ file: p.file, args: p.args, env: p.env, cwd: ws, timeoutMs: 30_000, signal: new AbortController().signal, maxOutputBytes: 10_000, wrapped: true })).output.text;
  };
  await run('echo kept > /tmp/note');
  expect(await run('cat /tmp/note')).toContain('kept');
  expect(fs.existsSync('/tmp/note') && fs.readFileSync('/tmp/note', 'utf8') === 'kept\n').toBe(false);
  sandbox.dispose();
});
