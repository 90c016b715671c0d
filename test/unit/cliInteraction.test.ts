// The interaction tools through the built `peon` command, as a black box (DESIGN.md §4,
// §8; SECURITY.md, Interaction): a question with no terminal, two processes writing
// todos at once, a corrupt todos.json, and plan mode refusing, then allowing after exit.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { CLI, peon, peonTool, type ToolOutcome } from './cliHarness';
import { makeWorkspace, tempDir } from './tools/toolTestContext';

const batch = (workspace: string, calls: readonly { tool: string; input: unknown }[], extra: readonly string[] = [], env: Record<string, string> = {}): ToolOutcome[] => {
  const r = peon(['tool', '--batch', '-', '--workspace', workspace, ...extra], { input: calls.map((c) => JSON.stringify(c)).join('\n'), env });
  expect(r.code, r.stderr).toBe(0);
  return r.lines.map((l) => JSON.parse(l) as ToolOutcome);
};

describe('askuserquestion without a terminal', () => {
  const questions = [{ id: 'a', question: 'Which one?', type: 'select', options: ['x', 'y'], required: true }];

  test('a pipe on stdin: unavailable at once, never a wait', () => {
    const started = Date.now();
    const outcome = peonTool('askuserquestion', makeWorkspace(), { questions }, [], { input: '' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unavailable' }, permission: { decision: 'allow', source: 'questions to you are never gated' } });
    expect(Date.now() - started).toBeLessThan(30_000); // it returned: a wait would hang the test at its timeout
  });

  test('--batch: unavailable too, and the batch goes on', () => {
    const [asked, after] = batch(makeWorkspace(), [{ tool: 'askuserquestion', input: { questions } }, { tool: 'todoread', input: {} }]);
    expect(asked).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(after).toMatchObject({ ok: true, output: expect.stringContaining('No todos') });
  });
});

describe('askuserquestion on a terminal', () => {
  test('asked on the TTY (a pseudo-terminal from script(1)), answered by typed lines; the model\'s escape sequences never reach the terminal', () => {
    const root = makeWorkspace();
    const input = {
      questions: [
        { id: 'pick', question: '\u001b[2J\u001b]0;PWNED\u0007\u001b]52;c;cm0gLXJmIH4K\u0007Pick \u202eone', type: 'select', options: ['tabs\u001b[31m', 'spaces'], required: true },
        { id: 'why', question: 'Why?', type: 'text' },
      ],
    };
    const command = [process.execPath, CLI, 'tool', 'askuserquestion', '--workspace', root, '--input', JSON.stringify(input)].map((w) => `'${w.replace(/'/g, "'\\''")}'`).join(' ');
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { input: '3\ntwo spaces\nhabit\n', encoding: 'utf8', env: { ...process.env, PEON_STATE_DIR: tempDir('peon-state-') }, timeout: 60_000 });
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout.slice(r.stdout.indexOf('{"tool"')).trim()) as ToolOutcome;
    expect(result).toMatchObject({ ok: true, data: { answers: { pick: 'two spaces', why: 'habit' } } });
    expect(r.stdout).toContain('Pick ⟨U+202E⟩one (required)');
    expect(r.stdout).toContain('3) Custom answer');
    for (const escape of ['\u001b[2J', '\u001b]0;', '\u001b]52;', '\u001b[31m']) expect(r.stdout).not.toContain(escape);
  });
});

describe('todos from the command line', () => {
  test('two `peon tool --batch` processes writing at once lose no update', async () => {
    const root = makeWorkspace();
    const run = (who: string): Promise<{ code: number | null; out: string }> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, 'tool', '--batch', '-', '--workspace', root], { env: { ...process.env, PEON_STATE_DIR: tempDir('peon-state-') }, stdio: ['pipe', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, out }));
        child.stdin.end(Array.from({ length: 20 }, (_, i) => JSON.stringify({ tool: 'todowrite', input: { title: `${who} ${i}` } })).join('\n'));
      });
    const results = await Promise.all([run('first'), run('second')]);
    for (const r of results) {
      expect(r.code).toBe(0);
      expect(r.out.trim().split('\n').every((l) => (JSON.parse(l) as ToolOutcome).ok)).toBe(true);
    }
    const stored = JSON.parse(fs.readFileSync(path.join(root, '.peon', 'todos.json'), 'utf8')) as { todos: { id: string; title: string }[] };
    expect(stored.todos).toHaveLength(40);
    expect(new Set(stored.todos.map((t) => t.id)).size).toBe(40);
    expect(stored.todos.map((t) => t.title).sort()).toEqual([...Array.from({ length: 20 }, (_, i) => `first ${i}`), ...Array.from({ length: 20 }, (_, i) => `second ${i}`)].sort());
  });

  test('a todos.json that does not parse is kept aside, reported, never emptied; invalid input changes nothing', () => {
    const root = makeWorkspace({ '.peon/todos.json': '{"todos": [ {"id": "todo-1", "title": "half a file' });
    const original = fs.readFileSync(path.join(root, '.peon', 'todos.json'));
    const [read, bad, added] = batch(root, [
      { tool: 'todoread', input: {} },
      { tool: 'todowrite', input: { id: 'todo-9', status: 'done' } },
      { tool: 'todowrite', input: { title: 'start again' } },
    ]);
    expect(read).toMatchObject({ ok: true, output: expect.stringContaining('does not parse; it is left as it is'), data: { unreadable: true } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(added).toMatchObject({ ok: true, data: { todo: { id: 'todo-1', title: 'start again' } } });
    const aside = (added!.data as { setAside: string }).setAside;
    expect(aside).toMatch(/^\.peon\/todos\.corrupt-[^/]+\.json$/);
    expect(fs.readFileSync(path.join(root, aside))).toEqual(original);
  });
});

describe('plan mode from the command line', () => {
  test('refuses sed -i, git commit, a redirect and a delegated agent, changing nothing; after exit they reach the gate again', () => {
    const root = makeWorkspace({ 'a.txt': 'one\n' });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'init');
    const head = git('rev-parse', 'HEAD');
    // A `claude` on PATH, so the delegate is found; it never runs (plan mode first, then --approve none).
    const bin = tempDir('peon-bin-');
    fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\necho ran > "$PWD/claude-ran"\n', { mode: 0o755 });
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const changes = [
      { tool: 'bash', input: { command: 'sed -i s/one/two/ a.txt' } },
      { tool: 'bash', input: { command: 'git commit --allow-empty -m planned', outside_sandbox: 'git writes .git, read-only in the sandbox' } },
      { tool: 'bash', input: { command: 'echo two > a.txt' } },
      { tool: 'agent_claude', input: { prompt: 'change a.txt' } },
    ];
    const planning = batch(root, [{ tool: 'enterplanmode', input: {} }, ...changes, { tool: 'bash', input: { command: 'cat a.txt' } }], ['--approve', 'all'], env);
    expect(planning[0]).toMatchObject({ ok: true, permission: { decision: 'ask', answer: 'approved' } });
    for (const outcome of planning.slice(1, 5)) expect(outcome).toMatchObject({ ok: false, error: { code: 'permission_denied', message: expect.stringMatching(/^Plan mode is on/) }, permission: null });
    expect(planning[5]).toMatchObject({ ok: true, output: expect.stringContaining('one') });
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(git('rev-parse', 'HEAD')).toBe(head);

    const after = batch(root, [{ tool: 'enterplanmode', input: {} }, { tool: 'exitplanmode', input: { plan: '# Plan\n' } }, ...changes.slice(0, 3)], ['--approve', 'all'], env);
    expect(after[1]).toMatchObject({ ok: true });
    expect(after.slice(2, 5).every((o) => o.ok)).toBe(true);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');
    expect(git('rev-parse', 'HEAD')).not.toBe(head);
    // The delegate is no longer refused: it goes to the gate (and, with --approve none, is denied there).
    const delegate = peonTool('agent_claude', root, { prompt: 'change a.txt' }, ['--approve', 'none'], { env });
    expect(delegate).toMatchObject({ ok: false, error: { code: 'permission_denied' }, permission: { decision: 'ask', answer: 'denied' } });
    expect(fs.existsSync(path.join(root, 'claude-ran'))).toBe(false);
  });
});
