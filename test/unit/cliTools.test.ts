import { spawn } from 'node:child_process';
import { CLI, hasOpen, peon, waitUntil } from './cliHarness';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeWorkspace, quietHome, tempDir } from './tools/toolTestContext';

// `peon tools` / `peon tool` as a black box: the built CLI spawned, its JSON parsed (DESIGN.md §8).
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('peon tools', () => {
  test('--json prints every tool with name, risk, description and input schema', () => {
    const r = peon(['tools', '--json']);
    expect(r.code).toBe(0);
    const tools = JSON.parse(r.stdout) as { name: string; risk: string; description: string; inputSchema: { type: string } }[];
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'delete', 'list']));
    for (const t of tools) {
      expect(Object.keys(t)).toEqual(['name', 'risk', 'description', 'inputSchema']);
      expect(t.inputSchema.type).toBe('object');
      expect(t.description.length).toBeGreaterThan(20);
    }
  });

  test('the human listing names each tool with its risk', () => {
    const r = peon(['tools']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^read +read_only +Read a file from the workspace\.$/m);
    expect(r.stdout).toMatch(/^write +filesystem /m);
  });

  test('an unknown option is a usage error', () => {
    expect(peon(['tools', '--yaml'])).toMatchObject({ code: 2, stderr: 'peon tools: Unknown option --yaml.\n' });
  });
});

describe('peon tool', () => {
  test('one call prints one JSON object with the documented keys', () => {
    const root = makeWorkspace({ 'a.txt': 'hello\n' });
    const r = peon(['tool', 'read', '--workspace', root, '--input', '{"path":"a.txt"}']);
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(1);
    const out = json(r.lines[0]!);
    expect(Object.keys(out)).toEqual(['tool', 'ok', 'output', 'data', 'risk', 'permission']);
    expect(out).toMatchObject({ tool: 'read', ok: true, output: '1\thello', risk: 'read_only', permission: { decision: 'allow' } });
  });

  test('--approve defaults to none: an ask is denied and nothing changes (exit 0: the command ran)', () => {
    const root = makeWorkspace();
    const r = peon(['tool', 'write', '--workspace', root, '--input', '{"path":"b.txt","content":"x"}']);
    expect(r.code).toBe(0);
    const out = json(r.lines[0]!);
    expect(Object.keys(out)).toEqual(['tool', 'ok', 'error', 'risk', 'permission']);
    expect(out).toMatchObject({ ok: false, error: { code: 'permission_denied' }, permission: { decision: 'ask', answer: 'denied' } });
    expect(fs.existsSync(path.join(root, 'b.txt'))).toBe(false);
  });

  test('--approve all answers every ask', () => {
    const root = makeWorkspace();
    const r = peon(['tool', 'write', '--workspace', root, '--approve', 'all', '--input', '{"path":"b.txt","content":"x"}']);
    expect(json(r.lines[0]!)).toMatchObject({ ok: true, permission: { answer: 'approved' } });
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('x');
  });

  test('an unknown tool and invalid input are results, not crashes', () => {
    const root = makeWorkspace();
    const unknown = json(peon(['tool', 'frob', '--workspace', root]).lines[0]!);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_tool' }, risk: null, permission: null });
    expect(Object.keys(unknown)).toEqual(['tool', 'ok', 'error', 'risk', 'permission']);
    expect(json(peon(['tool', 'read', '--workspace', root, '--input', '{"path":7}']).lines[0]!)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  test.each([
    [['tool', 'read', '--input', '{bad'], /--input is not valid JSON/],
    [['tool'], /needs a tool name/],
    [['tool', 'read', '--approve', 'some'], /--approve takes "all" or "none"/],
    [['tool', 'read', '--workspace', '/does/not/exist'], /is not a folder/],
    [['tool', 'read', '--config', '/does/not/exist.json'], /--config/],
  ])('usage error %j exits 2', (args, message) => {
    const r = peon(args, { cwd: makeWorkspace() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  test('--batch runs JSON lines in ONE session: a read lets a later edit through; bad lines get their own result', () => {
    const root = makeWorkspace({ 'a.txt': 'hello\n' });
    const batch = [
      JSON.stringify({ tool: 'edit', input: { path: 'a.txt', oldString: 'hello', newString: 'bye' } }),
      JSON.stringify({ tool: 'read', input: { path: 'a.txt' } }),
      'not json',
      JSON.stringify({ tool: 'edit', input: { path: 'a.txt', oldString: 'hello', newString: 'bye' } }),
    ].join('\n');
    const r = peon(['tool', '--batch', '-', '--workspace', root, '--approve', 'all'], { input: batch });
    expect(r.code).toBe(0);
    expect(r.lines.map((l) => json(l)).map((o) => (o.ok ? 'ok' : (o.error as { code: string }).code))).toEqual(['not_read', 'ok', 'invalid_input', 'ok']);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('bye\n');
  });

  test('--batch FILE reads the lines from a file', () => {
    const root = makeWorkspace({ 'a.txt': 'x' });
    const file = path.join(tempDir(), 'calls.jsonl');
    fs.writeFileSync(file, `${JSON.stringify({ tool: 'list', input: {} })}\n`);
    expect(json(peon(['tool', '--batch', file, '--workspace', root]).lines[0]!)).toMatchObject({ tool: 'list', ok: true });
  });

  test('a workspace .vscode/settings.json that is broken is ignored with a warning, never loosening anything', () => {
    const root = makeWorkspace({ '.vscode/settings.json': '{ "peon.model.baseUrl": ', 'a.txt': 'x' });
    const r = peon(['tool', 'read', '--workspace', root, '--input', '{"path":"a.txt"}']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^peon: Ignored .*\.vscode\/settings\.json/);
  });

  test('checkpoints that cannot be kept (the state folder is a file) turn off with a warning; the write still lands', () => {
    const root = makeWorkspace();
    const state = path.join(tempDir('peon-state-file-'), 'state');
    fs.writeFileSync(state, 'not a folder\n');
    const r = peon(['tool', 'write', '--workspace', root, '--approve', 'all', '--input', '{"path":"made.txt","content":"kept\\n"}'], { env: { PEON_STATE_DIR: state } });
    expect(r.code).toBe(0);
    expect(json(r.lines[0]!)).toMatchObject({ ok: true });
    expect(json(r.lines[0]!)).not.toHaveProperty('changes');
    expect(fs.readFileSync(path.join(root, 'made.txt'), 'utf8')).toBe('kept\n');
    expect(r.stderr).toMatch(/^peon: Checkpoints are off for this session: .*state\/checkpoints cannot be used \(ENOTDIR/m);
  });

  // As root, EACCES is real only for another user: the CLI runs as `nobody` against root's files.
  test.runIf(process.getuid?.() === 0)('EACCES (the CLI as an unprivileged user): permission_denied, original intact, no temp file', () => {
    const root = makeWorkspace({ 'ro/a.txt': 'original\n' });
    fs.chmodSync(root, 0o755);
    fs.chmodSync(path.join(root, 'ro'), 0o755);
    fs.chmodSync(path.join(root, 'ro', 'a.txt'), 0o644);
    // A copy where `nobody` can read it, wherever this checkout lives: the bundle, and the page worker it finds beside it.
    const bin = tempDir('peon-cli-');
    fs.chmodSync(bin, 0o755);
    fs.copyFileSync(CLI, path.join(bin, 'cli.js'));
    fs.copyFileSync(path.join(path.dirname(CLI), 'markdownWorker.js'), path.join(bin, 'markdownWorker.js'));
    fs.chmodSync(path.join(bin, 'cli.js'), 0o755);
    for (const dir of [root, bin]) {
      for (let d = path.dirname(dir); d !== path.dirname(d); d = path.dirname(d)) {
        if ((fs.statSync(d).mode & 0o001) === 0) return expect.fail(`${d} is not traversable by nobody`);
      }
    }
    const r = peon(['tool', 'write', '--workspace', root, '--approve', 'all', '--input', '{"path":"ro/a.txt","content":"new\\n"}'], {
      uid: 65534,
      cwd: os.tmpdir(),
      cli: path.join(bin, 'cli.js'),
    });
    expect(json(r.lines[0]!)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(fs.readFileSync(path.join(root, 'ro/a.txt'), 'utf8')).toBe('original\n');
    expect(fs.readdirSync(path.join(root, 'ro'))).toEqual(['a.txt']);
  });
});

test('SIGINT cancels a running call through the Stop path: a cancelled result is printed and the CLI exits', async () => {
  const root = makeWorkspace();
  const fd = fs.openSync(path.join(root, 'huge.log'), 'w');
  fs.writeSync(fd, Array.from({ length: 2000 }, (_, i) => `line ${i}\n`).join(''));
  fs.ftruncateSync(fd, 8 * 1024 ** 3); // sparse: hashing it whole takes far longer than this test waits
  fs.closeSync(fd);
  const child = spawn(process.execPath, [CLI, 'tool', 'read', '--workspace', root, '--input', '{"path":"huge.log"}'], {
    env: { ...process.env, PEON_STATE_DIR: tempDir('peon-state-') },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await waitUntil(() => hasOpen(child.pid!, path.join(root, 'huge.log')), 'the CLI is reading huge.log');
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toMatchObject({ tool: 'read', ok: false, error: { code: 'cancelled' } });
}, 30_000);

describe('permissions through the CLI (--config is user scope, .vscode/settings.json project scope)', () => {
  const config = (rules: unknown) => {
    const file = path.join(tempDir(), 'user.json');
    fs.writeFileSync(file, JSON.stringify({ 'peon.permission.rules': rules }));
    return file;
  };
  const write = (root: string, extra: string[] = []) =>
    json(peon(['tool', 'write', '--workspace', root, '--approve', 'all', ...extra, '--input', '{"path":"a.txt","content":"new"}']).lines[0]!);

  test('a deny rule stays denied under --approve all, and names itself', () => {
    const root = makeWorkspace({ 'a.txt': 'old' });
    expect(write(root, ['--config', config({ write: 'deny' })])).toMatchObject({
      ok: false,
      error: { code: 'permission_denied' },
      permission: { decision: 'deny', source: 'peon.permission.rules (user): write -> deny' },
    });
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('old');
  });

  test('a workspace allow is ignored (with a warning); a workspace deny applies', () => {
    const root = makeWorkspace({ 'a.txt': 'old', '.vscode/settings.json': '// project\n{ "peon.permission.rules": { "read": "allow", "write": "deny" } }' });
    const r = peon(['tool', 'write', '--workspace', root, '--approve', 'all', '--input', '{"path":"a.txt","content":"new"}']);
    expect(json(r.lines[0]!)).toMatchObject({ ok: false, permission: { decision: 'deny', source: 'peon.permission.rules (workspace): write -> deny' } });
    expect(r.stderr).toContain('may only add ask or deny; its looser rule for read is ignored');
    const read = json(peon(['tool', 'read', '--workspace', root, '--input', '{"path":".vscode/settings.json"}']).lines[0]!);
    expect(read).toMatchObject({ ok: false, permission: { decision: 'ask', mode: 'semi-ask' } });
  });

  test('deny beats allow: a user allow and a workspace deny', () => {
    const root = makeWorkspace({ 'a.txt': 'old', '.vscode/settings.json': '{ "peon.permission.rules": { "write": "deny" } }' });
    expect(write(root, ['--config', config({ write: 'allow' })])).toMatchObject({ ok: false, permission: { decision: 'deny' } });
  });

  test('a protected path asks even under an allow rule', () => {
    const root = makeWorkspace();
    const r = json(peon(['tool', 'write', '--workspace', root, '--config', config({ write: 'allow' }), '--input', '{"path":".git/hooks/pre-commit","content":"#!/bin/sh"}']).lines[0]!);
    expect(r).toMatchObject({ ok: false, permission: { decision: 'ask', mode: 'allow', answer: 'denied' } });
    expect(fs.existsSync(path.join(root, '.git/hooks/pre-commit'))).toBe(false);
  });

  test('bash pattern rules, segment by segment: a user allow runs; a chained command asks; a workspace allow is ignored, its deny applies', () => {
    const root = makeWorkspace({ '.vscode/settings.json': '{ "peon.permission.rules": { "bash": { "touch *": "allow", "echo denied*": "deny" } } }' });
    const home = quietHome();
    const bash = (command: string) => json(peon(['tool', 'bash', '--workspace', root, '--config', config({ bash: { 'echo *': 'allow' } }), '--input', JSON.stringify({ command })], { env: { HOME: home } }).lines[0]!);
    expect(bash('echo hello')).toMatchObject({ ok: true, output: 'hello\n[exit code 0]', permission: { decision: 'allow', source: 'peon.permission.rules (user): bash "echo *" -> allow' } });
    // The second segment is neither allowed nor read-only: the line asks, and --approve none denies it.
    expect(bash('echo hello && touch made.txt')).toMatchObject({ ok: false, permission: { decision: 'ask', answer: 'denied', reasons: ['`touch made.txt`: touch is not one of the read-only commands Peon runs without asking'] } });
    expect(fs.existsSync(path.join(root, 'made.txt'))).toBe(false);
    expect(bash('echo denied now')).toMatchObject({ ok: false, permission: { decision: 'deny', source: 'peon.permission.rules (workspace): bash "echo denied*" -> deny' } });
  });

  test('corrupt rules fail closed: even a read asks', () => {
    const root = makeWorkspace({ 'a.txt': 'x' });
    const r = peon(['tool', 'read', '--workspace', root, '--config', config({ read: 'perhaps' }), '--input', '{"path":"a.txt"}']);
    expect(json(r.lines[0]!)).toMatchObject({ ok: false, permission: { decision: 'ask', mode: 'ask' } });
    expect(r.stderr).toMatch(/every tool asks/);
  });
});

test('SIGTERM to peon tool bash: TERM to the process group, KILL after 2 s, the cancelled result printed', async () => {
  const root = makeWorkspace();
  const child = spawn(process.execPath, [CLI, 'tool', 'bash', '--workspace', root, '--approve', 'all', '--input', JSON.stringify({ command: "trap '' TERM; touch started; sleep 100" })], {
    env: { ...process.env, PEON_STATE_DIR: tempDir('peon-state-') },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await waitUntil(() => fs.existsSync(path.join(root, 'started')), 'the command has set its trap');
  const sent = Date.now();
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  expect(Date.now() - sent).toBeGreaterThanOrEqual(1900);
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toMatchObject({ tool: 'bash', ok: true, data: { cancelled: true, signal: 'SIGKILL' } });
}, 30_000);
