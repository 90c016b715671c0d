import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { IgnoreRules } from '../../../src/core/workspace/ignoreRules';
import { protectedReason, secretReasons } from '../../../src/core/workspace/pathRules';
import { Workspace, isWithin } from '../../../src/core/workspace/workspace';
import { makeWorkspace, tempDir, writeFiles } from '../tools/toolTestContext';

describe('Workspace.resolve', () => {
  test('virtual, absolute, ~ and .. paths; containment by canonical segments', () => {
    const root = makeWorkspace({ 'src/a.ts': '' });
    const ws = new Workspace([{ path: root }], '/home/someone');
    expect(ws.resolve('src/a.ts')).toMatchObject({ display: 'src/a.ts', relative: 'src/a.ts', inside: true, exists: true });
    expect(ws.resolve(path.join(root, 'src/a.ts'))).toMatchObject({ relative: 'src/a.ts', inside: true });
    expect(ws.resolve('src/../src/a.ts')).toMatchObject({ relative: 'src/a.ts' });
    expect(ws.resolve('../../etc/passwd')).toMatchObject({ inside: false, relative: undefined });
    expect(ws.resolve('~/notes.txt')).toMatchObject({ absolute: '/home/someone/notes.txt', inside: false });
    expect(ws.resolve('.')).toMatchObject({ display: '.', relative: '' });
    expect(() => ws.resolve('a\0b')).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  test('isWithin compares segments, not string prefixes', () => {
    expect(isWithin('/ws', '/ws/a')).toBe(true);
    expect(isWithin('/ws', '/ws')).toBe(true);
    expect(isWithin('/ws', '/ws-evil/a')).toBe(false);
    expect(isWithin('/ws', '/ws/../etc')).toBe(false);
    expect(isWithin('/ws', '/ws/..a/b')).toBe(true);
  });

  test('a new file under a symlinked directory resolves through the link', () => {
    const outside = tempDir();
    const root = makeWorkspace();
    fs.symlinkSync(outside, path.join(root, 'link'));
    expect(new Workspace([{ path: root }]).resolve('link/new/deep.txt')).toMatchObject({ inside: false, exists: false, canonical: path.join(outside, 'new/deep.txt') });
  });

  test('a symlink loop is invalid_input, not a hang', () => {
    const root = makeWorkspace();
    fs.symlinkSync('b', path.join(root, 'a'));
    fs.symlinkSync('a', path.join(root, 'b'));
    expect(() => new Workspace([{ path: root }]).resolve('a/x')).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  test('several folders: the first is the root unless the path names another folder', () => {
    const one = makeWorkspace({ 'a.txt': '' });
    const two = makeWorkspace({ 'b.txt': '' });
    const ws = new Workspace([{ name: 'app', path: one }, { name: 'lib', path: two }]);
    expect(ws.resolve('a.txt')).toMatchObject({ folder: { name: 'app' }, display: 'app/a.txt' });
    expect(ws.resolve('app/a.txt')).toMatchObject({ folder: { name: 'app' }, display: 'app/a.txt' });
    expect(ws.resolve('lib/b.txt')).toMatchObject({ folder: { name: 'lib' }, display: 'lib/b.txt', relative: 'b.txt', exists: true });
    expect(ws.resolve(path.join(two, 'b.txt'))).toMatchObject({ folder: { name: 'lib' }, inside: true });
  });
});

describe('secret-like and protected paths', () => {
  test.each(['.env', '.env.production', 'key.pem', 'server.key', 'id_rsa', 'id_ed25519.pub', '.netrc', '.npmrc', '.git-credentials', 'db_secret.yaml', 'aws_credentials', 'home/.ssh/config', 'home/.aws/config', 'x/.kube/config', 'h/.docker/config.json'])(
    '%s is secret-like',
    (p) => expect(secretReasons(p.split('/'))).not.toEqual([]),
  );

  test.each(['src/env.ts', 'README.md', 'keys.md', 'monkey.ts', 'environment/a.ts'])('%s is ordinary', (p) => expect(secretReasons(p.split('/'))).toEqual([]));

  test.each([
    ['.vscode/settings.json', undefined],
    ['.VSCODE/tasks.json', undefined],
    ['.git/hooks/pre-commit', undefined],
    ['.git/config', undefined],
    ['.peon/mcp.json', undefined],
    ['.peon/skills/x/SKILL.md', undefined],
    ['.github/workflows/ci.yml', undefined],
    ['.mcp.json', undefined],
    [undefined, '.bashrc'],
    [undefined, '.zshrc'],
    [undefined, '.peon/skills/y/SKILL.md'],
  ])('workspace %s / home %s is protected', (ws, home) => expect(protectedReason(ws, home)).toBeDefined());

  test.each(['.peon/todos.json', '.peon/plans/p.md', '.peon/memory/obs-1.md', 'src/.vscode.ts', 'github/workflows/x'])('%s is not protected', (p) =>
    expect(protectedReason(p, undefined)).toBeUndefined(),
  );
});

describe('ignore rules', () => {
  test('nested .gitignore, .peonignore, negation, .git/info/exclude and ignored parents', () => {
    const root = tempDir();
    writeFiles(root, {
      '.gitignore': 'node_modules/\n*.log\n!keep.log\n',
      '.peonignore': 'secret-notes/\n',
      '.git/info/exclude': 'local.tmp\n',
      'pkg/.gitignore': 'gen/\n!gen/\n*.out\n',
      'pkg/sub/.peonignore': 'draft.md\n',
    });
    const rules = new IgnoreRules(root);
    const ignored = (p: string, dir = false) => rules.isIgnored(p, dir);
    expect(ignored('node_modules/a/index.js')).toBe(true);
    expect(ignored('node_modules', true)).toBe(true);
    expect(ignored('debug.log')).toBe(true);
    expect(ignored('keep.log')).toBe(false);
    expect(ignored('secret-notes/x.md')).toBe(true);
    expect(ignored('local.tmp')).toBe(true);
    expect(ignored('pkg/a.out')).toBe(true);
    expect(ignored('a.out')).toBe(false);
    expect(ignored('pkg/sub/draft.md')).toBe(true);
    expect(ignored('draft.md')).toBe(false);
    expect(ignored('.git/config')).toBe(true);
    expect(ignored('src/main.ts')).toBe(false);
    expect(rules.isEntryIgnored('pkg', 'x.out', false)).toBe(true);
  });
});
