import { secretReasons } from '../../../src/core/workspace/pathRules';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, test } from 'vitest';
import { locateRipgrep } from '../../../src/core/search/ripgrep';
import { globTool } from '../../../src/core/tools/glob';
import { CallPipeline } from '../../../src/core/conversation/pipeline';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { ToolError } from '../../../src/core/tools/toolError';
import { approveAll, makeContext, makeWorkspace, tempDir, writeFiles } from './toolTestContext';

const RG = locateRipgrep();
const BACKENDS: [string, string | undefined][] = [
  ['node', undefined],
  ...(RG ? [['ripgrep', RG] as [string, string]] : []),
  ...(fs.existsSync('/usr/bin/rg') ? [['debian rg', '/usr/bin/rg'] as [string, string]] : []),
];

const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });

/** A git repository exercising every ignore rule glob must honour. */
function gitFixture(): string {
  const root = makeWorkspace({
    '.gitignore': '*.log\n!keep.log\nbuild/\n/root-only.txt\nnode_modules/\n',
    '.peonignore': 'private/\n*.bak\n',
    'app/.gitignore': 'generated/\n*.tmp\n!important.tmp\n',
    'app/.peonignore': 'legacy/\n',
    'app/src/main.ts': 'main',
    'app/src/util.ts': 'util',
    'app/src/view.tsx': 'view',
    'app/generated/out.ts': 'ignored by the nested .gitignore',
    'app/scratch.tmp': 'ignored',
    'app/important.tmp': 're-included by negation',
    'app/root-only.txt': 'not ignored: the root rule is anchored',
    'app/legacy/old.ts': 'peonignored',
    'root-only.txt': 'ignored',
    'debug.log': 'ignored',
    'keep.log': 're-included',
    'build/out.js': 'ignored directory',
    'node_modules/pkg/index.js': 'ignored',
    'private/notes.md': 'peonignored',
    'x.bak': 'peonignored',
    '.hidden/config.json': '{}',
    '.env.example': 'A=1',
    'README.md': '# readme',
    'docs/guide.md': 'guide',
  });
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'fixture');
  writeFiles(root, { 'app/src/untracked.ts': 'untracked, not ignored', 'notes.txt': 'untracked' });
  fs.symlinkSync('.', path.join(root, 'loop')); // a symlink loop
  fs.symlinkSync('app/src/main.ts', path.join(root, 'main-link.ts'));
  fs.symlinkSync('../app', path.join(root, 'docs', 'app-link'));
  return root;
}

/**
 * git's set (untracked included, standard excludes), minus .peonignore'd files, symlinks
 * and secret-like files (searches leave those out: reading one asks), filtered like glob.
 */
function expectedSet(root: string, pattern: string, under = ''): string[] {
  const list = (...args: string[]) => new Set(git(root, 'ls-files', '-co', ...args, '-z').split('\0').filter(Boolean));
  const standard = list('--exclude-standard');
  const peonIgnored = list('--ignored', '--exclude-per-directory=.peonignore');
  const anchored = pattern.includes('/');
  const match = picomatch(pattern.replace(/^\//, ''), { dot: true, basename: !anchored });
  return [...standard]
    .filter((f) => !peonIgnored.has(f) && !fs.lstatSync(path.join(root, f)).isSymbolicLink())
    .filter((f) => secretReasons(f.split('/')).length === 0)
    .filter((f) => under === '' || f.startsWith(`${under}/`))
    .filter((f) => match(under === '' ? f : f.slice(under.length + 1)))
    .sort();
}

async function glob(root: string, input: Record<string, unknown>, ripgrep?: string) {
  const ctx = makeContext(root, { ripgrep });
  const parsed = globTool.parse(input);
  return globTool.execute(parsed, ctx, await globTool.assess(parsed, ctx));
}

const lines = (output: string): string[] => output.split('\n\n[')[0]!.split('\n').filter((l) => l !== '' && !l.startsWith('No files'));

describe.each(BACKENDS)('glob with the %s backend', (_name, ripgrep) => {
  test('the result set equals git ls-files -co --exclude-standard filtered by the pattern, minus .peonignore', async () => {
    const root = gitFixture();
    for (const pattern of ['**/*', '*.ts', '**/*.ts', '*.{ts,tsx}', 'app/**', 'app/src/*.ts', '*', '.*', '**/.*/*', '/*.md', 'docs/*', '*.md', '?EADME.md', '[ab]*/**/*.ts']) {
      const result = await glob(root, { pattern }, ripgrep);
      expect(lines(result.output).sort(), pattern).toEqual(expectedSet(root, pattern));
      expect(result.data).toMatchObject({ backend: ripgrep ? 'ripgrep' : 'node', truncated: false });
    }
    const sub = await glob(root, { pattern: '**/*.ts', path: 'app' }, ripgrep);
    expect(lines(sub.output).sort()).toEqual(expectedSet(root, '**/*.ts', 'app'));
    expect(lines(sub.output)).toContain('app/src/main.ts');
  });

  test('newest modification first, ties by path', async () => {
    const root = makeWorkspace({ 'a.txt': '', 'b.txt': '', 'c.txt': '', 'd.txt': '' });
    const at = (name: string, seconds: number) => fs.utimesSync(path.join(root, name), seconds, seconds);
    at('a.txt', 1_000);
    at('b.txt', 3_000);
    at('c.txt', 2_000);
    at('d.txt', 2_000);
    expect(lines((await glob(root, { pattern: '*.txt' }, ripgrep)).output)).toEqual(['b.txt', 'c.txt', 'd.txt', 'a.txt']);
  });

  test('bounded at 1,000 results with a note', async () => {
    const files = Object.fromEntries(Array.from({ length: 1005 }, (_, i) => [`many/f${i}.txt`, '']));
    const root = makeWorkspace(files);
    const result = await glob(root, { pattern: '**/*.txt' }, ripgrep);
    expect(lines(result.output)).toHaveLength(1000);
    expect(result.output).toMatch(/\[Showing the 1000 most recently modified of 1005 matching files/);
    expect(result.data).toMatchObject({ count: 1000, total: 1005, truncated: true });
  });

  test('output is also bounded by the output limit', async () => {
    const root = makeWorkspace(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, ''])));
    const ctx = makeContext(root, { ripgrep, limits: { maxOutputChars: 400, maxReadBytes: 1024 } });
    const input = globTool.parse({ pattern: '*.txt' });
    const result = await globTool.execute(input, ctx, await globTool.assess(input, ctx));
    expect(result.output.length).toBeLessThanOrEqual(400);
    expect(result.data).toMatchObject({ truncated: true, total: 50 });
  });

  test('a symlink loop is neither followed nor listed, and the walk ends', async () => {
    const root = makeWorkspace({ 'a/b.txt': '' });
    fs.symlinkSync('..', path.join(root, 'a', 'up'));
    fs.symlinkSync('loop2', path.join(root, 'loop1'));
    fs.symlinkSync('loop1', path.join(root, 'loop2'));
    expect(lines((await glob(root, { pattern: '**' }, ripgrep)).output)).toEqual(['a/b.txt']);
  });

  test('an ignored directory named on purpose is listed (the gate asks first)', async () => {
    const root = gitFixture();
    const ctx = makeContext(root, { ripgrep });
    const input = globTool.parse({ pattern: '**', path: 'build' });
    const assessment = await globTool.assess(input, ctx);
    expect(assessment.paths[0]).toMatchObject({ ignored: true, display: 'build' });
    expect(assessment.summary).toEqual({ kind: 'file-access', path: 'build', reasons: ['ignored by .gitignore or .peonignore'] });
    expect(lines((await globTool.execute(input, ctx, assessment)).output)).toEqual(['build/out.js']);
  });

  test('an approved directory outside the workspace is searched, shown with absolute paths', async () => {
    const root = makeWorkspace({ 'in.txt': '' });
    const outside = tempDir('peon-outside-');
    writeFiles(outside, { 'x/one.md': '', 'two.md': '', '.gitignore': 'skip.md\n', 'skip.md': '' });
    const registry = new ToolRegistry();
    registry.register(globTool);
    const asked: string[][] = [];
    const session = new CallPipeline(registry, makeContext(root, { ripgrep }), async (request, signal) => {
      asked.push([...request.permission.reasons]);
      return approveAll(request, signal);
    });
    const outcome = await session.call('glob', { pattern: '*.md', path: outside });
    expect(asked).toEqual([[`${outside} is outside the workspace`]]);
    expect(outcome).toMatchObject({ ok: true, risk: 'filesystem' });
    if (outcome.ok) expect(lines(outcome.output).sort()).toEqual([path.join(outside, 'two.md'), path.join(outside, 'x/one.md')]);
  });
});

describe('glob input and errors', () => {
  test('an absolute pattern names its directory', async () => {
    const root = makeWorkspace({ 'src/a.ts': '', 'src/deep/b.ts': '', 'c.ts': '' });
    const result = await glob(root, { pattern: `${root}/src/**/*.ts` });
    expect(lines(result.output).sort()).toEqual(['src/a.ts', 'src/deep/b.ts']);
    expect(result.data).toMatchObject({ path: 'src', pattern: '**/*.ts' });
    expect(lines((await glob(root, { pattern: '/c.ts' })).output)).toEqual(['c.ts']); // no such directory: anchored
  });

  test('no match is a result, not an error', async () => {
    const result = await glob(makeWorkspace({ 'a.txt': '' }), { pattern: '*.rs' });
    expect(result.output).toBe('No files match *.rs in ..');
    expect(result.data).toMatchObject({ count: 0, total: 0, truncated: false });
  });

  test('assessment: read_only, no writes, the search directory, a file-access card', async () => {
    const root = makeWorkspace({ 'src/a.ts': '' });
    const assessment = await globTool.assess(globTool.parse({ pattern: '*.ts', path: 'src' }), makeContext(root));
    expect(assessment).toMatchObject({ risk: 'read_only', writes: false, summary: { kind: 'file-access', path: 'src', reasons: [] } });
    expect(assessment.paths.map((p) => p.display)).toEqual(['src']);
  });

  test.each([
    [{}, /pattern/],
    [{ pattern: '' }, /pattern/],
    [{ pattern: 7 }, /pattern/],
    [{ pattern: '../*.ts' }, /may not contain "\.\."/],
    [{ pattern: '*.ts', path: 3 }, /path/],
    [{ pattern: '*.ts', recursive: true }, /unknown parameter\(s\): recursive/],
  ])('invalid input %j', (input, message) => {
    const error = (() => {
      try {
        globTool.parse(input);
      } catch (e) {
        return e as ToolError;
      }
    })();
    expect(error).toBeInstanceOf(ToolError);
    expect(error?.code).toBe('invalid_input');
    expect(error?.message).toMatch(message);
  });

  test('a missing directory is not_found; a file is invalid_input', async () => {
    const root = makeWorkspace({ 'a.txt': '' });
    await expect(glob(root, { pattern: '*', path: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(glob(root, { pattern: '*', path: 'a.txt' })).rejects.toMatchObject({ code: 'invalid_input', message: /is a file/ });
  });

  test('cancelled before it starts', async () => {
    const root = makeWorkspace({ 'a.txt': '' });
    const controller = new AbortController();
    controller.abort();
    for (const ripgrep of [undefined, RG]) {
      const ctx = makeContext(root, { ripgrep, signal: controller.signal });
      const input = globTool.parse({ pattern: '*' });
      await expect(globTool.execute(input, ctx, await globTool.assess(input, ctx))).rejects.toMatchObject({ name: 'AbortError' });
    }
  });
});
