import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { peonTool, type ToolOutcome } from '../cliHarness';
import { tempDir, writeFiles } from '../tools/toolTestContext';
import { expectAskedHiding, git, liveControl } from './reviewHarness';

// The review's git findings (F4: programs from repository config; F5: secret-like and
// outside files printed), reproduced through the built CLI under default settings on
// real git repositories, with a temporary HOME.

const gitIn = (cwd: string, ...args: string[]): string => git(cwd, cwd, ...args);

function repo(files: Record<string, string>): { t: string; home: string; ws: string } {
  const t = tempDir('peon-review-git-');
  const home = path.join(t, 'home');
  const ws = path.join(t, 'ws');
  fs.mkdirSync(home);
  writeFiles(ws, files);
  gitIn(ws, 'init', '-q', '.');
  gitIn(ws, 'add', '-f', '.');
  gitIn(ws, 'commit', '-qm', 'init');
  return { t, home, ws };
}

const bash = (ws: string, home: string, command: string, extra: string[] = []): ToolOutcome => peonTool('bash', ws, { command }, extra, { env: { HOME: home } });

const expectAsked = (outcome: ToolOutcome, why?: string): void => expectAskedHiding(outcome, undefined, why);

describe('F4: whitelisted git commands and the programs a repository config names', () => {
  function armed(): { t: string; home: string; ws: string } {
    const box = repo({ '.gitattributes': '*.txt diff=x filter=y\n', 'f.txt': 'one\n' });
    fs.appendFileSync(
      path.join(box.ws, '.git/config'),
      `[diff]\n\texternal = "sh -c 'touch ${box.t}/F4-diffext' --"\n[diff "x"]\n\ttextconv = "sh -c 'touch ${box.t}/F4-textconv; cat \\"$0\\"'"\n[filter "y"]\n\tclean = "sh -c 'touch ${box.t}/F4-clean; cat'"\n`,
    );
    fs.appendFileSync(path.join(box.ws, 'f.txt'), 'two\n');
    return box;
  }

  test.each(['git status', 'git diff', 'git log -p -1', 'git show', 'git blame f.txt', 'git log --oneline'])('%j asks, and no program of the repository runs', (command) => {
    const { t, home, ws } = armed();
    expectAsked(bash(ws, home, command), "the repository's own git config sets");
    expect(fs.readdirSync(t).filter((f) => f.startsWith('F4-'))).toEqual([]);
  });

  test('the harness is live: approved, `git diff` runs the external diff', () => {
    const { t, home, ws } = armed();
    bash(ws, home, 'git diff', liveControl(t));
    expect(fs.existsSync(path.join(t, 'F4-diffext'))).toBe(true);
  });

  test('a submodule config with a textconv asks too (git diff runs in submodules)', () => {
    const { home, ws } = repo({ 'a.txt': 'x\n' });
    writeFiles(path.join(ws, '.git/modules/lib'), { config: '[diff "x"]\n\ttextconv = sh -c true\n' });
    expectAsked(bash(ws, home, 'git status'), 'in the submodule config .git/modules/lib/config');
  });

  test("git-lfs's own filter, as `git lfs install --local` writes it, does not ask", () => {
    const { home, ws } = repo({ 'a.txt': 'x\n' });
    gitIn(ws, 'config', 'filter.lfs.clean', 'git-lfs clean -- %f');
    gitIn(ws, 'config', 'filter.lfs.process', 'git-lfs filter-process');
    expect(bash(ws, home, 'git status --short')).toMatchObject({ ok: true, permission: { decision: 'allow' } });
  });
});

describe('F5: git output that holds secret-like or outside files', () => {
  function monorepo(): { t: string; home: string; ws: string; root: string; blob: string } {
    const box = repo({ '.env.production': 'DB_PASSWORD=hunter2\n', 'pkg/secrets.yml': 'aws_secret_access_key=FAKE\n', 'other/notes.txt': 'outside the workspace\n', 'pkg/index.js': 'x\n' });
    fs.writeFileSync(path.join(box.ws, '.env.production'), 'DB_PASSWORD=changed\n');
    const blob = gitIn(box.ws, 'rev-parse', 'HEAD:pkg/secrets.yml').trim();
    return { ...box, root: box.ws, ws: path.join(box.ws, 'pkg'), blob };
  }

  test('in a package folder of a monorepo: object ids, HEAD:other paths and a repository-wide diff ask', () => {
    const { home, ws, blob } = monorepo();
    expect(bash(ws, home, 'git ls-files -s')).toMatchObject({ ok: true, permission: { decision: 'allow' } });
    for (const [command, why] of [
      [`git show ${blob}`, 'names a git object by id'],
      [`git show ${blob.slice(0, 7)}`, 'names a git object by id'],
      ['git show HEAD:other/notes.txt', 'HEAD:other/notes.txt names'],
      ['git show HEAD:', 'HEAD: names'],
      ['git diff', 'would print the content of .env.production'],
      ['git diff HEAD', 'would print the content of .env.production'],
      ['git log -p', 'would print the content of'],
      ['git show', 'would print the content of'],
      ['git log -S hunter2 --oneline', 'would print the content of'],
    ]) {
      const outcome = bash(ws, home, command!);
      expectAsked(outcome, why);
      expect(JSON.stringify(outcome)).not.toMatch(/DB_PASSWORD|aws_secret_access_key|outside the workspace\\n/);
    }
  });

  test('confined to the workspace with a pathspec, the same commands run', () => {
    const { home, ws } = monorepo();
    for (const command of ['git log -p -- index.js', 'git diff -- index.js', 'git show HEAD:pkg/index.js', 'git show HEAD:./index.js', 'git log --oneline', 'git log --stat', 'git status']) {
      expect(bash(ws, home, command), command).toMatchObject({ ok: true, permission: { decision: 'allow' } });
    }
  });

  test('in a root workspace: tracked secret-like files in a diff, a patch or a commit ask; other files do not', () => {
    const { home, root } = monorepo();
    fs.appendFileSync(path.join(root, 'pkg/index.js'), 'y\n');
    for (const command of ['git diff', 'git log -p', 'git show HEAD', 'git status -v']) expectAsked(bash(root, home, command), 'would print the content of');
    expect(bash(root, home, 'git diff -- pkg/index.js')).toMatchObject({ ok: true, output: expect.stringContaining('+y') });
  });

  test('a word that is neither a revision nor a path asks: it may be the value of an option Peon does not know', () => {
    const { home, root } = monorepo();
    expectAsked(bash(root, home, 'git log -p --author-date-order nosuchthing'), 'cannot tell whether nosuchthing is a revision');
  });

  test('`git remote -v` with credentials in a remote URL asks; without, it runs', () => {
    const { home, ws } = repo({ 'a.txt': 'x\n' });
    gitIn(ws, 'remote', 'add', 'origin', 'https://ghp_FAKE@github.example/x/y.git');
    const outcome = bash(ws, home, 'git remote -v');
    expectAsked(outcome, 'the remote origin has credentials in its URL');
    expect(JSON.stringify(outcome)).not.toContain('ghp_FAKE');
    gitIn(ws, 'remote', 'set-url', 'origin', 'git@github.example:x/y.git');
    expect(bash(ws, home, 'git remote -v')).toMatchObject({ ok: true, permission: { decision: 'allow' } });
  });
});
