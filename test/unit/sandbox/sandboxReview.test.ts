// The second hostile review of the sandbox, each break reproduced through the built
// `peon` command as root and as an ordinary user, and shown closed on the host side:
// a repository made where the walk did not look, a Unix socket reached with the network
// off, a hooks folder the person's own git config names, secrets other tools keep, a
// skill folder or VS Code workspace file made, a read-only workspace under /tmp.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { waitUntil } from '../cliHarness';
import { cleanUp, makeRunners, result, runCli, varTmp, workspaceFor, type Runner } from './sandboxKit';

/** Running (not gone, not a zombie waiting to be reaped). */
function processAlive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

const runners = makeRunners();
afterAll(cleanUp);

const OFF = { 'peon.sandbox.mode': 'off' };
const chown = (runner: Runner, dir: string): void => void execFileSync('chown', ['-R', `${runner.uid}:${runner.gid}`, dir]);
const blocked = (dir: string, name: string): string[] => fs.readdirSync(dir).filter((n) => n.startsWith(`${name}.peon-blocked-`));

/** `git status` on the host, as the runner, with the runner's HOME: what the person or VS Code's git does next. */
function hostGit(runner: Runner, dir: string): void {
  const user = runner.name === 'user' ? ['setpriv', `--reuid=${runner.uid}`, `--regid=${runner.gid}`, '--clear-groups', '--'] : [];
  try {
    execFileSync(user[0] ?? 'git', [...user.slice(1), ...(user.length > 0 ? ['git'] : []), '-C', dir, 'status', '--short'], { env: { PATH: process.env.PATH, HOME: runner.home }, stdio: 'ignore' });
  } catch {
    // not a repository, or git refused: what matters is whether the mark appeared
  }
}

/** A Unix socket listening at `at` that counts who connected. */
async function socketListener(at: string): Promise<{ heard: () => number; close: () => void }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(at, resolve));
  fs.chmodSync(at, 0o777);
  return { heard: () => count, close: () => server.close() };
}

const connect = (sock: string): string => `${process.execPath} -e "require('net').connect('${sock}').on('connect', () => console.log('CONNECTED')).on('error', (e) => console.log(e.code))"`;

describe.each(runners)('as $name', (runner: Runner) => {
  test('a repository made with its folder\'s mtime set back, or inside node_modules, is moved aside, and host git runs nothing', async () => {
    const ws = workspaceFor(runner, { 'sub/README.md': 'x\n', 'node_modules/left-pad/index.js': 'x\n' });
    const mark = path.join(runner.outside, 'PWNED');
    const plant = (dir: string): string => `M=$(stat -c %y ${dir}); git init -q ${dir}; git -C ${dir} config core.fsmonitor "touch ${mark}; false"; touch -m -d "$M" ${dir}`;
    const r = await result(runCli(runner, ws, 'bash', { command: `${plant('sub')}; ${plant('node_modules/left-pad')}; echo planted` }));
    expect(r.output).toContain('planted');
    expect(blocked(path.join(ws, 'sub'), '.git')).toHaveLength(1);
    expect(blocked(path.join(ws, 'node_modules/left-pad'), '.git')).toHaveLength(1);
    expect(r.output).toMatch(/sub\/\.git was made by this sandboxed command and moved to/);
    for (const dir of ['sub', 'node_modules/left-pad']) hostGit(runner, path.join(ws, dir));
    expect(fs.existsSync(mark)).toBe(false);
  });

  test('with the network off, a Unix socket outside /run and /tmp (an agent\'s, one in the workspace) cannot be reached', async () => {
    const ws = workspaceFor(runner);
    const agentDir = varTmp('peon-sbx-agent-', runner.uid, runner.gid);
    const agent = await socketListener(path.join(agentDir, 'agent.sock'));
    const dev = await socketListener(path.join(ws, 'dev.sock'));
    try {
      const command = `${connect(path.join(agentDir, 'agent.sock'))}; ${connect(path.join(ws, 'dev.sock'))}`;
      const r = await result(runCli(runner, ws, 'bash', { command }));
      expect(r.output).not.toContain('CONNECTED');
      expect(agent.heard() + dev.heard()).toBe(0);
      // The same command outside the sandbox reaches both: the test would see a leak.
      const off = await result(runCli(runner, ws, 'bash', { command }, { config: OFF }));
      expect(off.output.match(/CONNECTED/g)).toHaveLength(2);
      expect(agent.heard() + dev.heard()).toBe(2);
    } finally {
      agent.close();
      dev.close();
    }
  });

  test('a hooks folder the person\'s global git config names relatively (core.hooksPath = .githooks) cannot be made', async () => {
    const ws = workspaceFor(runner, { 'README.md': 'x\n' });
    execFileSync('git', ['init', '-q', ws]);
    chown(runner, ws);
    fs.writeFileSync(path.join(runner.home, '.gitconfig'), '[core]\n\thooksPath = .githooks\n');
    chown(runner, path.join(runner.home, '.gitconfig'));
    try {
      const r = await result(runCli(runner, ws, 'bash', { command: 'mkdir -p .githooks; printf "#!/bin/sh\\ntouch HOOKED\\n" > .githooks/pre-commit; echo "hooks=$?"' }));
      expect(r.output).toMatch(/^hooks=[1-9]/m);
      expect(fs.existsSync(path.join(ws, '.githooks'))).toBe(false);
    } finally {
      fs.rmSync(path.join(runner.home, '.gitconfig'));
    }
  });

  test('secrets other tools keep, a credential file a lowercase variable names, and credentials in values are out of sight', async () => {
    const ws = workspaceFor(runner);
    const files = { '.cache/huggingface/token': 'hf-peon-secret', '.config/sops/age/keys.txt': 'AGE-SECRET-KEY-PEON', '.pulumi/credentials.json': '{"pulumi":"peon-secret"}' };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(runner.home, rel)), { recursive: true });
      fs.writeFileSync(path.join(runner.home, rel), text);
    }
    const npmrc = path.join(runner.outside, 'npmrc');
    fs.writeFileSync(npmrc, '//registry.npmjs.org/:_authToken=npm-peon-secret\n');
    chown(runner, runner.home);
    chown(runner, runner.outside);
    const env = {
      npm_config_userconfig: npmrc,
      GPG_PASSPHRASE: 'gpg-peon-secret',
      ConnectionStrings__Db: 'Server=db;User Id=sa;Password=conn-peon-secret',
      GIT_CONFIG_PARAMETERS: "'http.extraheader'='AUTHORIZATION: bearer git-peon-secret'",
      ANTHROPIC_API_KEYS: 'sk-peon-keys',
      SENTRY_DSN_URL: 'https://dsn-peon-secret@sentry.example/1',
    };
    const r = await result(runCli(runner, ws, 'bash', { command: `cat ~/.cache/huggingface/token ~/.config/sops/age/keys.txt ~/.pulumi/credentials.json ${npmrc}; env` }, { env }));
    expect(r.output).not.toMatch(/peon-secret|AGE-SECRET|sk-peon-keys/);
    const off = await result(runCli(runner, ws, 'bash', { command: `cat ~/.cache/huggingface/token ${npmrc}; env` }, { env, config: OFF }));
    expect(off.output).toContain('hf-peon-secret'); // they are there to be read
    expect(off.output).toContain('npm-peon-secret');
  });

  test('a skill folder (.agents/skills) cannot be made; a new VS Code workspace file is moved aside; an existing one is read-only', async () => {
    const ws = workspaceFor(runner, { 'team.code-workspace': '{"folders":[{"path":"."}]}\n' });
    const command = 'mkdir -p .agents/skills/deploy; echo "agents=$?"; echo \'{"settings":{}}\' > evil.code-workspace; echo "made=$?"; echo x >> team.code-workspace; echo "team=$?"';
    const r = await result(runCli(runner, ws, 'bash', { command }));
    expect(r.output).toMatch(/^agents=[1-9]/m);
    expect(r.output).toMatch(/^made=0$/m);
    expect(r.output).toMatch(/^team=[1-9]/m);
    expect(fs.existsSync(path.join(ws, '.agents'))).toBe(false);
    expect(fs.existsSync(path.join(ws, 'evil.code-workspace'))).toBe(false);
    expect(blocked(ws, 'evil.code-workspace')).toHaveLength(1);
    expect(fs.readFileSync(path.join(ws, 'team.code-workspace'), 'utf8')).toBe('{"folders":[{"path":"."}]}\n');
  });

  test('a bare repository laid out as plain files (HEAD, objects, refs, config) cannot be made at the top, and is disarmed below it', async () => {
    const ws = workspaceFor(runner, { 'sub/README.md': 'x\n' });
    const mark = path.join(runner.outside, 'PWNED-bare');
    const bare = (dir: string): string => `mkdir -p ${dir}/objects ${dir}/refs/heads; printf 'ref: refs/heads/main\\n' > ${dir}/HEAD; echo "head=$?"; printf '[core]\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = "touch ${mark}; false"\\n' > ${dir}/config`;
    const r = await result(runCli(runner, ws, 'bash', { command: `${bare('.')}; ${bare('sub')}` }));
    expect(r.output).toMatch(/^head=[1-9]/m); // the top's HEAD is covered while the command runs
    expect(fs.existsSync(path.join(ws, 'HEAD'))).toBe(false);
    expect(fs.existsSync(path.join(ws, 'sub/HEAD'))).toBe(false);
    expect(blocked(path.join(ws, 'sub'), 'HEAD')).toHaveLength(1);
    for (const dir of [ws, path.join(ws, 'sub')]) hostGit(runner, dir);
    expect(fs.existsSync(mark)).toBe(false);
  });

  test('a folder the command swapped for a link is not acted through: what the link names is left alone', async () => {
    const victim = varTmp('peon-sbx-victim-', runner.uid, runner.gid);
    fs.mkdirSync(path.join(victim, 'b/.githooks'), { recursive: true });
    fs.writeFileSync(path.join(victim, 'b/.githooks/keep'), 'the person\'s\n');
    const ws = workspaceFor(runner, { 'a/b/README.md': 'x\n' });
    execFileSync('git', ['init', '-q', path.join(ws, 'a/b')]);
    chown(runner, ws);
    fs.writeFileSync(path.join(runner.home, '.gitconfig'), '[core]\n\thooksPath = .githooks\n');
    chown(runner, path.join(runner.home, '.gitconfig'));
    try {
      const r = await result(runCli(runner, ws, 'bash', { command: `mv a a2 && ln -s ${victim} a; echo "swapped=$?"` }));
      expect(r.output).toMatch(/^swapped=0$/m);
      expect(fs.readFileSync(path.join(victim, 'b/.githooks/keep'), 'utf8')).toBe('the person\'s\n');
      expect(fs.readdirSync(path.join(victim, 'b'))).toEqual(['.githooks']);
      expect(r.output).toMatch(/was replaced by a link during this command/);
    } finally {
      fs.rmSync(path.join(runner.home, '.gitconfig'));
    }
  });

  test('protected names made one folder down (sub/.vscode, sub/.claude, sub/.mcp.json, sub/.agents) are moved aside', async () => {
    const ws = workspaceFor(runner, { 'sub/README.md': 'x\n' });
    const r = await result(runCli(runner, ws, 'bash', { command: 'mkdir -p sub/.vscode sub/.claude sub/.agents/skills/x; echo "{}" > sub/.vscode/tasks.json; echo "{}" > sub/.claude/settings.json; echo "{}" > sub/.mcp.json; echo made' }));
    expect(r.output).toContain('made');
    for (const name of ['.vscode', '.claude', '.mcp.json', '.agents']) {
      expect(fs.existsSync(path.join(ws, 'sub', name))).toBe(false);
      expect(blocked(path.join(ws, 'sub'), name)).toHaveLength(1);
    }
  });

  test('what a Peon killed mid-command left (the empty covers in the workspace, its private /tmp) is cleared by the next one', async () => {
    const ws = workspaceFor(runner, { 'README.md': 'x\n' });
    const run = runCli(runner, ws, 'bash', { command: 'echo started > started.txt; sleep 60' });
    await waitUntil(() => fs.existsSync(path.join(ws, 'started.txt')), 'the command runs');
    expect(fs.statSync(path.join(ws, '.vscode')).isDirectory()).toBe(true); // the empty cover, there while it runs
    const pid = run.child.pid!;
    run.child.kill('SIGKILL');
    await run.done;
    const theirs = (): string[] => fs.readdirSync('/tmp').filter((n) => n.startsWith(`peon-sandbox-tmp-${pid}-`) || n.startsWith(`peon-sandbox-empty-${pid}-`));
    await waitUntil(() => !processAlive(pid), 'the killed CLI is gone');
    // bwrap died with it (die-with-parent); the covers and the folders stay until a Peon starts again.
    expect(fs.existsSync(path.join(ws, '.vscode'))).toBe(true);
    expect(theirs().length).toBeGreaterThan(0);
    const next = await result(runCli(runner, ws, 'bash', { command: 'ls -a' }));
    expect(next.ok).toBe(true);
    expect(fs.existsSync(path.join(ws, '.vscode'))).toBe(false);
    expect(theirs()).toEqual([]);
  });

  test('read-only mode with the workspace under /tmp runs sandboxed, sees the workspace and writes nothing', async () => {
    const ws = fs.mkdtempSync('/tmp/peon-sbx-ro-');
    try {
      fs.writeFileSync(path.join(ws, 'README.md'), 'read me\n');
      chown(runner, ws);
      fs.chmodSync(ws, 0o755);
      const r = await result(runCli(runner, ws, 'bash', { command: 'cat README.md; touch new.txt; echo "touch=$?"' }, { config: { 'peon.sandbox.mode': 'read-only' } }));
      expect(r).toMatchObject({ ok: true, data: { sandbox: 'sandboxed' } });
      expect(r.output).toContain('read me');
      expect(r.output).toMatch(/^touch=[1-9]/m);
      expect(fs.existsSync(path.join(ws, 'new.txt'))).toBe(false);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
