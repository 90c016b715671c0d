import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { resolveSettings } from '../../../src/core/settings';
import { denyAll, makeSession, makeWorkspace, quietEnv, tempDir } from './toolTestContext';

const settings = (user: Record<string, unknown>) => resolveSettings({ user, workspace: {} }).values;

describe('bash', () => {
  test('runs in the workspace with /bin/bash (sandboxed: not a login shell); a non-zero exit is a result, not an error', async () => {
    const root = makeWorkspace();
    const r = await makeSession(root).call('bash', { command: 'pwd; echo "$0"; exit 7', description: 'where am I' });
    expect(r).toMatchObject({ ok: true, risk: 'process', data: { exitCode: 7, signal: null, timedOut: false, cancelled: false } });
    expect(r.ok && r.output).toBe(`${root}\n/bin/bash\n[exit code 7]`);
  });

  test('the card shows the command, where it runs and the description; every command asks for now', async () => {
    const root = makeWorkspace({ 'keep.txt': 'x' });
    let card: unknown;
    const r = await makeSession(root, async (request) => ((card = request.assessment.summary), { approved: false })).call('bash', {
      command: 'git status && rm -rf .',
      description: 'check the tree',
    });
    expect(card).toMatchObject({ kind: 'command', command: 'git status && rm -rf .', cwd: '.', description: 'check the tree', sandbox: { state: 'sandboxed' } });
    expect((card as { sandbox: { text: string } }).sandbox.text).toMatch(new RegExp(`^Sandboxed — writes: ${root}, private /tmp · network off`));
    expect(r).toMatchObject({ ok: false, error: { code: 'permission_denied' }, permission: { decision: 'ask', mode: 'semi-judge' } });
    expect(fs.existsSync(path.join(root, 'keep.txt'))).toBe(true);
  });

  test('workdir: a folder inside the workspace; outside or missing is refused before anything runs', async () => {
    const root = makeWorkspace({ 'sub/a.txt': 'x' });
    const s = makeSession(root);
    const inSub = await s.call('bash', { command: 'ls', workdir: 'sub' });
    expect(inSub.ok && inSub.output).toBe('a.txt\n[exit code 0]');
    expect(await s.call('bash', { command: 'ls', workdir: tempDir() })).toMatchObject({ ok: false, error: { code: 'outside_workspace' } });
    expect(await s.call('bash', { command: 'ls', workdir: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  test('a timeout above the maximum is lowered, the result says so, and the deadline kills', async () => {
    const root = makeWorkspace();
    const r = await makeSession(root, undefined, { settings: settings({ 'peon.bash.maxTimeoutSeconds': 1 }) }).call('bash', { command: 'sleep 30', timeout: 10 });
    expect(r).toMatchObject({ ok: true, data: { timedOut: true, timeoutSeconds: 1, timeoutLowered: true, signal: 'SIGKILL' } });
    expect(r.ok && r.output).toBe('[timeout lowered from 10 s to the maximum of 1 s]\n[timed out after 1 s: the command and everything it started were killed]');
  });

  test('the default timeout comes from peon.bash.defaultTimeoutSeconds', async () => {
    const root = makeWorkspace();
    const r = await makeSession(root, undefined, { settings: settings({ 'peon.bash.defaultTimeoutSeconds': 1 }) }).call('bash', { command: 'sleep 30' });
    expect(r).toMatchObject({ ok: true, data: { timedOut: true, timeoutSeconds: 1, timeoutLowered: false } });
  });

  test('git commit without -m, cat and read x: no hang (stdin closed, editor and prompts disabled)', async () => {
    const root = makeWorkspace({ 'a.txt': 'x' });
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['add', 'a.txt'], { cwd: root });
    const s = makeSession(root);
    // A git write runs outside the sandbox (.git is read-only inside), on its own red card.
    const commit = await s.call('bash', { command: 'git -c user.name=t -c user.email=t@t commit', outside_sandbox: 'git writes .git' });
    expect(commit).toMatchObject({ ok: true, data: { timedOut: false } });
    expect(commit.ok && commit.data.exitCode).not.toBe(0);
    expect(commit.ok && commit.output).toMatch(/empty commit message/i);
    expect(await s.call('bash', { command: 'cat; read x; echo $?' })).toMatchObject({ ok: true, output: '1\n[exit code 0]' });
  });

  test('live output reaches onProgress as it arrives, escapes stripped', async () => {
    const root = makeWorkspace();
    const seen: string[] = [];
    await makeSession(root, undefined, { onProgress: (t) => seen.push(t) }).call('bash', { command: `printf '\\033[32mone\\033[0m\\n'; sleep 0.2; echo two` });
    expect(seen.join('')).toBe('one\ntwo\n');
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  test('peon tool bash from the CLI', () => {
    const root = makeWorkspace();
    const r = spawnSync(process.execPath, [path.resolve('dist/cli.js'), 'tool', 'bash', '--workspace', root, '--approve', 'all', '--input', '{"command":"echo hi; exit 2"}'], { encoding: 'utf8', env: quietEnv() });
    expect(JSON.parse(r.stdout)).toMatchObject({ tool: 'bash', ok: true, output: 'hi\n[exit code 2]', data: { exitCode: 2 }, risk: 'process' });
    const denied = spawnSync(process.execPath, [path.resolve('dist/cli.js'), 'tool', 'bash', '--workspace', root, '--input', '{"command":"touch x"}'], { encoding: 'utf8' });
    expect(JSON.parse(denied.stdout)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(fs.existsSync(path.join(root, 'x'))).toBe(false);
  });

  test('denied commands never run', async () => {
    const root = makeWorkspace();
    await makeSession(root, denyAll).call('bash', { command: 'touch ran' });
    expect(fs.existsSync(path.join(root, 'ran'))).toBe(false);
  });
});

test('a folder laid out like a bare repository cannot make the whitelisted `git status` run its fsmonitor hook', async () => {
  const root = makeWorkspace({ 'README.md': 'x\n' });
  const evil = path.join(root, 'evil');
  fs.mkdirSync(path.join(evil, 'objects'), { recursive: true });
  fs.mkdirSync(path.join(evil, 'refs'), { recursive: true });
  fs.writeFileSync(path.join(evil, 'HEAD'), 'ref: refs/heads/main\n');
  const marker = path.join(root, 'PWNED');
  fs.writeFileSync(path.join(evil, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch ${marker}"\n`);
  // Without the guard, git itself would run the hook here (the attack is real).
  spawnSync('git', ['status'], { cwd: evil, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  const attackWorks = fs.existsSync(marker);
  fs.rmSync(marker, { force: true });

  const outcome = await makeSession(root).call('bash', { command: 'git status', workdir: 'evil' });
  expect(outcome).toMatchObject({ permission: { decision: 'allow' } });
  expect(fs.existsSync(marker)).toBe(false);
  expect(attackWorks).toBe(true);
});
