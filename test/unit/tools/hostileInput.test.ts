import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { Workspace } from '../../../src/core/workspace/workspace';
import { CallPipeline } from '../../../src/core/conversation/pipeline';
import { builtinRegistry } from '../../../src/core/tools/builtins';
import { locateRipgrep } from '../../../src/core/search/ripgrep';
import { denyAll, makeContext, makeSession, makeWorkspace, tempDir } from './toolTestContext';

// Cases from a hostile-input review of the file tools: each must ask, refuse or keep the bytes.
const rg = locateRipgrep();

describe('secrets stay out of searches', () => {
  for (const backend of ['node', 'ripgrep'] as const) {
    test(`grep and glob leave secret-like files out and say so (${backend})`, async () => {
      const root = makeWorkspace({ '.env.production': 'API_KEY=sk-live-123\n', 'config_secret.yaml': 'password: hunter2\n', 'src/app.ts': 'const API_KEY = process.env.API_KEY;\n' });
      const s = makeSession(root, denyAll, { ripgrep: backend === 'ripgrep' ? rg : undefined });
      const grep = await s.call('grep', { pattern: 'API_KEY|password' });
      expect(grep).toMatchObject({ ok: true, permission: { decision: 'allow' }, data: { secretLikeLeftOut: 2 } });
      expect(grep.ok && grep.output).not.toMatch(/sk-live|hunter2/);
      expect(grep.ok && grep.output).toContain('src/app.ts:1:');
      const glob = await s.call('glob', { pattern: '**/*' });
      expect(glob.ok && glob.output.split('\n')[0]).toBe('src/app.ts');
      expect(glob.ok && glob.data.secretLikeLeftOut).toBe(2);
    });
  }

  test('a search aimed at a secret folder asks; approved, it shows what is there', async () => {
    const root = makeWorkspace({ '.ssh/config': 'Host x\n' });
    expect(await makeSession(root, denyAll).call('grep', { pattern: 'Host', path: '.ssh' })).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    expect(await makeSession(root, denyAll).call('list', { path: '.ssh' })).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    const approved = await makeSession(root).call('grep', { pattern: 'Host', path: '.ssh' });
    expect(approved.ok && approved.output).toContain('Host x');
  });
});

describe('protected paths, however they are reached', () => {
  test('.vscode/settings.json as a symlink to an ordinary file is still protected', async () => {
    const root = makeWorkspace({ 'real.json': '{}' });
    fs.mkdirSync(path.join(root, '.vscode'));
    fs.symlinkSync('../real.json', path.join(root, '.vscode/settings.json'));
    const r = await makeSession(root, denyAll).call('write', { path: '.vscode/settings.json', content: '{"peon.permission.rules":{"write":"allow"}}' });
    expect(r.ok === false && r.error.message).toMatch(/is protected: VS Code workspace configuration/);
    expect(fs.readFileSync(path.join(root, 'real.json'), 'utf8')).toBe('{}');
  });

  test('an ordinary name that leads into .git is protected', async () => {
    const root = makeWorkspace({ '.git/config': '[core]\n' });
    fs.symlinkSync('.git/config', path.join(root, 'innocent.txt'));
    const r = await makeSession(root, denyAll).call('write', { path: 'innocent.txt', content: '[core]\n\thooksPath = /tmp/evil\n' });
    expect(r.ok === false && r.error.message).toMatch(/is protected: git internals/);
  });

  test('a nested repository\'s hooks are protected', async () => {
    const root = makeWorkspace();
    const r = await makeSession(root, denyAll).call('write', { path: 'vendor/lib/.git/hooks/pre-commit', content: '#!/bin/sh\n' });
    expect(r.ok === false && r.error.message).toMatch(/is protected/);
  });
});

test('a symlink swapped while the card waits: nothing is written outside, the call is stale', async () => {
  const outside = tempDir();
  const root = makeWorkspace({ 'sub/keep.txt': 'x' });
  const s = new CallPipeline(builtinRegistry(), makeContext(root), async () => {
    fs.rmSync(path.join(root, 'sub'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'sub'));
    return { approved: true };
  });
  const r = await s.call('write', { path: 'sub/new.txt', content: 'pwned' });
  expect(r).toMatchObject({ ok: false, error: { code: 'stale' } });
  expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
});

test('a dangling symlink to a folder outside: a write through it is outside (asks)', async () => {
  const outside = tempDir();
  const root = makeWorkspace();
  fs.symlinkSync(path.join(outside, 'newdir'), path.join(root, 'dangling'));
  const r = await makeSession(root, denyAll).call('write', { path: 'dangling/evil.txt', content: 'x' });
  expect(r).toMatchObject({ ok: false, error: { code: 'outside_workspace' } });
  expect(fs.existsSync(path.join(outside, 'newdir'))).toBe(false);
});

test('a FIFO is refused by read, write, edit and delete, and nothing blocks', async () => {
  const root = makeWorkspace();
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  const s = makeSession(root);
  for (const [tool, input] of [
    ['read', { path: 'pipe' }],
    ['write', { path: 'pipe', content: 'x' }],
    ['delete', { path: 'pipe' }],
  ] as const) {
    expect(await s.call(tool, input), tool).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  }
  expect(fs.statSync(path.join(root, 'pipe')).isFIFO()).toBe(true);
});

test('several folders: every path names its folder; a name that is both a folder and an entry is refused', async () => {
  const app = makeWorkspace({ 'lib/x.ts': 'app lib' });
  const lib = makeWorkspace({ 'x.ts': 'lib folder' });
  const ws = new Workspace([{ name: 'app', path: app }, { name: 'lib', path: lib }]);
  const s = new CallPipeline(builtinRegistry(), makeContext(ws), async () => ({ approved: true }));
  expect(await s.call('read', { path: 'lib/x.ts' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  const a = await s.call('read', { path: 'app/lib/x.ts' });
  expect(a).toMatchObject({ ok: true, data: { path: 'app/lib/x.ts' } });
  expect(a.ok && a.output).toContain('app lib');
});

test('a CRLF file stays CRLF when a one-line oldString becomes several lines', async () => {
  const root = makeWorkspace({ 'w.txt': 'a\r\nb\r\nc' });
  const s = makeSession(root);
  await s.call('read', { path: 'w.txt' });
  expect((await s.call('edit', { path: 'w.txt', oldString: 'b', newString: 'x\ny' })).ok).toBe(true);
  expect(fs.readFileSync(path.join(root, 'w.txt'), 'utf8')).toBe('a\r\nx\r\ny\r\nc');
});

test('a 250-byte file name can be written and edited (the temp name has a fixed length)', async () => {
  const name = `${'n'.repeat(246)}.txt`;
  const root = makeWorkspace();
  const s = makeSession(root);
  expect((await s.call('write', { path: name, content: 'one\n' })).ok).toBe(true);
  expect((await s.call('edit', { path: name, oldString: 'one', newString: 'two' })).ok).toBe(true);
  expect(fs.readFileSync(path.join(root, name), 'utf8')).toBe('two\n');
});

test('writing a .gitignore takes effect at once in the same session', async () => {
  const root = makeWorkspace({ 'a.log': 'x', 'b.txt': 'y' });
  const s = makeSession(root);
  const before = await s.call('glob', { pattern: '*' });
  expect(before.ok && before.output).toContain('a.log');
  await s.call('write', { path: '.gitignore', content: '*.log\n' });
  const after = await s.call('glob', { pattern: '*' });
  expect(after.ok && after.output).not.toContain('a.log');
});

test.each(['write', 'edit', 'delete', 'list', 'glob', 'grep'])('%s: a path given as a number, an array or with NUL is invalid_input', async (tool) => {
  const root = makeWorkspace({ 'a.txt': 'x' });
  const s = makeSession(root);
  const base: Record<string, unknown> = { write: { content: 'x' }, edit: { oldString: 'x', newString: 'y' }, glob: { pattern: '*' }, grep: { pattern: 'x' } }[tool] ?? {};
  for (const bad of [7, ['a.txt'], 'a\0b']) {
    expect(await s.call(tool, { ...base, path: bad }), `${tool} ${JSON.stringify(bad)}`).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  }
});
