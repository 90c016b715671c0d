import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { waitUntil } from '../cliHarness';
import { sleepers, uniqueTag } from '../../processWatch';
import { resolveSettings } from '../../../src/core/settings';
import type { ApprovalRequest } from '../../../src/core/permissions/approvals';
import { denyAll, makeSession, makeWorkspace, tempDir } from './toolTestContext';

/** A fake agent CLI first on a temporary PATH: it records its argv (NUL-separated) and cwd. */
function fakeAgent(name: string, body = 'echo "fake $0 answered"') {
  const bin = tempDir('peon-bin-');
  const record = tempDir('peon-record-');
  fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nprintf '%s\\0' "$0" "$@" > "${record}/argv"\npwd > "${record}/cwd"\n${body}\n`, { mode: 0o755 });
  const env = { ...process.env, PATH: `${bin}:/usr/bin:/bin` };
  const argv = () => fs.readFileSync(path.join(record, 'argv'), 'utf8').split('\0').slice(0, -1);
  const ran = () => fs.existsSync(path.join(record, 'argv'));
  return { bin, env, argv, ran, cwd: () => fs.readFileSync(path.join(record, 'cwd'), 'utf8').trim() };
}

// Shell syntax that would leave a trace if it ever reached a shell: it must arrive as text.
const HOSTILE = `Review this; $(touch canary-subst) \`touch canary-backtick\` "double" 'single' && touch canary-and`;

describe('agent_claude, agent_codex, agent_pi', () => {
  test.each([
    ['agent_claude', 'claude', ['-p', '--settings', '{"sandbox":{"enabled":true}}']],
    ['agent_codex', 'codex', ['exec', '--sandbox', 'workspace-write', '--']],
    ['agent_pi', 'pi', ['-p']],
  ])('%s runs `%s %s <prompt>` with the prompt verbatim as one argument, in the workspace', async (tool, command, fixed) => {
    const fake = fakeAgent(command);
    const root = makeWorkspace();
    const r = await makeSession(root, undefined, { env: fake.env }).call(tool, { prompt: HOSTILE });
    expect(r).toMatchObject({ ok: true, risk: 'delegate', data: { exitCode: 0 } });
    expect(r.ok && r.output).toBe(`fake ${path.join(fake.bin, command)} answered\n[exit code 0]`);
    expect(fake.argv()).toEqual([path.join(fake.bin, command), ...fixed, HOSTILE]);
    expect(fake.cwd()).toBe(root);
    for (const canary of ['canary-subst', 'canary-backtick', 'canary-and']) expect(fs.existsSync(path.join(root, canary))).toBe(false);
  });

  test('the card shows the absolute path, the full argv, the prompt, the workspace and the warning; the default asks', async () => {
    const fake = fakeAgent('claude');
    const root = makeWorkspace();
    let request: ApprovalRequest | undefined;
    const r = await makeSession(root, async (req) => ((request = req), { approved: false }), { env: fake.env }).call('agent_claude', { prompt: 'Fix the tests' });
    expect(r).toMatchObject({ ok: false, error: { code: 'permission_denied' }, permission: { decision: 'ask', mode: 'ask' } });
    expect(request?.assessment.summary).toEqual({
      kind: 'delegate',
      executable: path.join(fake.bin, 'claude'),
      argv: [path.join(fake.bin, 'claude'), '-p', '--settings', '{"sandbox":{"enabled":true}}', 'Fix the tests'],
      prompt: 'Fix the tests',
      workspace: root,
      warning: 'The child agent may read, write, run commands, use your credentials and call its own model, on its own, in this workspace.',
      containment: "Runs in a PID namespace of its own: everything it starts ends with it; Claude Code's own sandbox is on for its commands.",
    });
    expect(fake.ran()).toBe(false);
  });

  test.each(['--dangerously-skip-permissions', '-p evil'])('a prompt starting with "-" (%s) is refused before anything runs', async (prompt) => {
    const fake = fakeAgent('claude');
    const r = await makeSession(makeWorkspace(), undefined, { env: fake.env }).call('agent_claude', { prompt });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(fake.ran()).toBe(false);
  });

  test('a missing CLI is unavailable, naming the executable and how to install it', async () => {
    const r = await makeSession(makeWorkspace(), undefined, { env: { PATH: tempDir() } }).call('agent_codex', { prompt: 'hi' });
    expect(r).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(r.ok === false && r.error.message).toBe('codex is not installed or not on PATH. Install it (npm install -g @openai/codex) or set peon.agents.codex.command in user settings.');
  });

  test('a hanging CLI is killed at the deadline, with what it started', async () => {
    const { tag, shell } = uniqueTag();
    const fake = fakeAgent('pi', `sleep 1000.${shell} & sleep 1001.${shell}`);
    const r = await makeSession(makeWorkspace(), undefined, { env: fake.env }).call('agent_pi', { prompt: 'wait', timeout_seconds: 1 });
    expect(r).toMatchObject({ ok: true, data: { timedOut: true, signal: 'SIGKILL' } });
    await waitUntil(() => sleepers(tag).length === 0, 'what it started is gone');
  });

  test('the executable and fixed arguments come from (user) settings', async () => {
    const fake = fakeAgent('my-claude');
    const settings = resolveSettings({ user: { 'peon.agents.claude.command': ['my-claude', '--print', '--verbose'] }, workspace: {} }).values;
    const r = await makeSession(makeWorkspace(), undefined, { env: fake.env, settings }).call('agent_claude', { prompt: 'hi' });
    expect(r.ok).toBe(true);
    expect(fake.argv()).toEqual([path.join(fake.bin, 'my-claude'), '--print', '--verbose', 'hi']);
  });

  test('a workspace cannot replace the executable: the setting is user-scope only', () => {
    const { values, warnings } = resolveSettings({ user: {}, workspace: { 'peon.agents.claude.command': ['/tmp/evil'] } });
    expect(values['peon.agents.claude.command']).toEqual(['claude', '-p', '--settings', '{"sandbox":{"enabled":true}}']);
    expect(warnings).toContain('peon.agents.claude.command is ignored in workspace settings; set it in your user settings.');
  });

  test('denied, nothing runs', async () => {
    const fake = fakeAgent('claude');
    await makeSession(makeWorkspace(), denyAll, { env: fake.env }).call('agent_claude', { prompt: 'hi' });
    expect(fake.ran()).toBe(false);
  });

  test('peon tool agent_claude from the CLI, with the CLI first on PATH', () => {
    const fake = fakeAgent('claude');
    const root = makeWorkspace();
    const r = spawnSync(process.execPath, [path.resolve('dist/cli.js'), 'tool', 'agent_claude', '--workspace', root, '--approve', 'all', '--input', JSON.stringify({ prompt: HOSTILE })], {
      encoding: 'utf8',
      env: fake.env,
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ tool: 'agent_claude', ok: true, risk: 'delegate', permission: { decision: 'ask', answer: 'approved' } });
    expect(fake.argv()).toEqual([path.join(fake.bin, 'claude'), '-p', '--settings', '{"sandbox":{"enabled":true}}', HOSTILE]);
  });
});

test('a prompt starting with "@" (pi would attach that file) is refused', async () => {
  const fake = fakeAgent('pi');
  const r = await makeSession(makeWorkspace(), undefined, { env: fake.env }).call('agent_pi', { prompt: '@/root/.aws/credentials summarise' });
  expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(fake.ran()).toBe(false);
});

test('an agent executable inside the workspace (a project .venv/bin on PATH) is refused', async () => {
  const root = makeWorkspace();
  fs.mkdirSync(path.join(root, '.venv', 'bin'), { recursive: true });
  fs.writeFileSync(path.join(root, '.venv', 'bin', 'claude'), '#!/bin/sh\ntouch "$(dirname "$0")/ran"\n', { mode: 0o755 });
  const env = { ...process.env, PATH: `${path.join(root, '.venv', 'bin')}:/usr/bin:/bin` };
  const r = await makeSession(root, undefined, { env }).call('agent_claude', { prompt: 'hi' });
  expect(r).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
  expect(fs.existsSync(path.join(root, '.venv', 'bin', 'ran'))).toBe(false);
});

test('the executable replaced in place while the card waits: stale, nothing runs', async () => {
  const fake = fakeAgent('claude');
  const exe = path.join(fake.bin, 'claude');
  const r = await makeSession(makeWorkspace(), async () => {
    fs.writeFileSync(exe, '#!/bin/sh\necho swapped\n', { mode: 0o755 });
    return { approved: true };
  }, { env: fake.env }).call('agent_claude', { prompt: 'hi' });
  expect(r).toMatchObject({ ok: false, error: { code: 'stale' } });
});
