import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { peonTool, type ToolOutcome } from '../cliHarness';
import { reviewBox, type ReviewBox } from './reviewHarness';

// The fourth hostile review of the gate: file tools, the read-only list's options, the
// logical `cd`, and archives under bash: allow. Through the built CLI, temporary HOME.

const box = (): ReviewBox => reviewBox('peon-review4-', { '.bashrc': 'export X=orig\n', '.ssh/id_ed25519': 'PRIVATE KEY LINE\n', '.aws/config': '' }, { '.env': 'S=hunter2\n', 'secrets/db.yml': 'DB=hunter2\n', 'README.md': 'x\n', '.gitignore': 'build/\n', 'build/private-notes.txt': 'p\n', 'a/b/c/d/e/.keep': '' });

const tool = (b: { ws: string; home: string }, name: string, input: unknown, extra: string[] = []): ToolOutcome => peonTool(name, b.ws, input, extra, { env: { HOME: b.home } });

function expectAsked(outcome: ToolOutcome): void {
  expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: false, permission: { decision: 'ask', answer: 'denied' } });
  expect(JSON.stringify(outcome)).not.toMatch(/hunter2|PRIVATE KEY|private-notes|id_ed25519/);
}

test('B1: glob with an absolute pattern asks about an outside folder whether it exists or not', () => {
  const b = box();
  for (const pattern of [`${b.home}/.aws/**`, `${b.home}/.gnupg/**`, '~/.kube/*', `${b.t}/nothing/*`]) expectAsked(tool(b, 'glob', { pattern }));
});

test('B2: list shows a secret-like folder without opening it', () => {
  const b = box();
  const outcome = tool(b, 'list', {});
  expect(outcome).toMatchObject({ ok: true, permission: { decision: 'allow' } });
  expect(outcome.output).toContain('secrets/ (not expanded: list it by path, which asks)');
  expect(outcome.output).not.toContain('db.yml');
  expectAsked(tool(b, 'list', { path: 'secrets' }));
});

describe('B3, B5: options of the read-only list that walk, follow links or read a list of files', () => {
  test.each(['ls -R', 'ls -LR', 'ls --recursive', 'ls -lR', 'du -a', 'du -aL', 'du --all', 'du -L', 'wc --f=files.lst', 'du -b --f=files.lst', 'wc --files0=files.lst', 'tail --f README.md', 'tail --fo README.md'])('%j asks', (command) => {
    const b = box();
    fs.symlinkSync(path.join(b.home, '.ssh'), path.join(b.ws, 'keys'));
    fs.writeFileSync(path.join(b.ws, 'files.lst'), `.env\0${b.home}/.ssh/id_ed25519\0`);
    expectAsked(tool(b, 'bash', { command }));
  });

  test.each(['ls -la', 'du -sh .', 'wc -l README.md', 'tail -n 1 README.md'])('%j still runs', (command) => {
    expect(tool(box(), 'bash', { command })).toMatchObject({ ok: true, permission: { decision: 'allow' } });
  });
});

test('B4: a logical cd out of the workspace (an absolute path through a link, then ..) asks, and so does what runs there', () => {
  const b = box();
  fs.symlinkSync('a/b/c/d/e', path.join(b.ws, 'x'));
  for (const command of [`cd ${b.ws}/x/../../../.. && ls`, `cd ${b.ws}/x/../../home && du && pwd`, 'cd build && ls']) expectAsked(tool(b, 'bash', { command }));
  expect(tool(b, 'bash', { command: 'cd x && ls' })).toMatchObject({ ok: true, permission: { decision: 'allow' } });
});

describe('B6, B7: under bash: allow, extracting an archive asks (its members may be .git/hooks or ~/.bashrc)', () => {
  test.each(['unzip -o evil.zip', 'tar xf evil.tar', 'tar -xzf evil.tar', 'cd ~ && unzip -o evil.zip', '7z x evil.zip', 'cpio -i < evil.cpio', 'cd ~ && wget http://127.0.0.1:9/x'])('%j asks', (command) => {
    const b = box();
    fs.writeFileSync(path.join(b.ws, 'evil.zip'), '');
    fs.writeFileSync(path.join(b.ws, 'evil.tar'), '');
    const outcome = tool(b, 'bash', { command }, ['--config', b.allow]);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    expect(fs.readFileSync(path.join(b.home, '.bashrc'), 'utf8')).toBe('export X=orig\n');
  });

  test.each(['unzip -l evil.zip', 'tar -tf evil.tar', 'tar -cf out.tar README.md'])('%j, which extracts nothing, still runs', (command) => {
    const b = box();
    fs.writeFileSync(path.join(b.ws, 'evil.zip'), '');
    fs.writeFileSync(path.join(b.ws, 'evil.tar'), '');
    expect(tool(b, 'bash', { command }, ['--config', b.allow])).toMatchObject({ permission: { decision: 'allow' } });
  });
});

test('N1: a file with another hard link (perhaps outside) asks, for read and cat alike', () => {
  const b = box();
  fs.linkSync(path.join(b.home, '.ssh/id_ed25519'), path.join(b.ws, 'notes.txt'));
  expectAsked(tool(b, 'read', { path: 'notes.txt' }));
  expectAsked(tool(b, 'bash', { command: 'cat notes.txt' }));
});
