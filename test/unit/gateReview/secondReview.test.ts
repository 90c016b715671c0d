import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { peonTool, type ToolOutcome } from '../cliHarness';
import { writeFiles } from '../tools/toolTestContext';
import { commitAll, expectAskedHiding, git, liveControl, reviewBox, type ReviewBox } from './reviewHarness';

// The second hostile review of the gate (after the first review's fixes), its breaks B1-B7
// reproduced through the built CLI with a temporary HOME. Default settings unless a case
// says `bash: allow`.

const box = (): ReviewBox => reviewBox('peon-review2-', { '.bash_history': 'mysql -p hunter2\n', '.bashrc': 'X=1\n', '.ssh/id_ed25519': 'FAKE-KEY\n' }, { '.env': 'SECRET=hunter2\n', 'README.md': '# r\n', 'empty/.keep': '', 'three.txt': '1\n2\n3\n', 'fix.patch': '' });

/** A repository where .env is tracked, changed in a second commit and changed again, uncommitted. */
function repo(): ReviewBox {
  const b = box();
  commitAll(b, 'one');
  fs.writeFileSync(path.join(b.ws, '.env'), 'SECRET=hunter3\n');
  git(b.ws, b.home, 'commit', '-qam', 'two');
  fs.appendFileSync(path.join(b.ws, 'README.md'), 'more\n');
  git(b.ws, b.home, 'commit', '-qam', 'three');
  return b;
}

const bash = (b: { ws: string; home: string }, command: string, extra: string[] = []): ToolOutcome => peonTool('bash', b.ws, { command }, extra, { env: { HOME: b.home } });

const expectAsked = (outcome: ToolOutcome): void => expectAskedHiding(outcome, /hunter[23]|FAKE-KEY|TOKEN_/);

describe('B1: brace expansion inside braces', () => {
  test.each(['cat {.env,{x}}', 'cat {~/.bash_history,{}}', "echo '\\'{a,b}", 'cat {{.env,x},y}'])('%j asks', (command) => expectAsked(bash(box(), command)));

  test('`git log -1 {--output,~/.profile,…}` asks, and writes no profile', () => {
    const b = repo();
    expectAsked(bash(b, `git log -1 {--output,${b.home}/.profile,'--format=tformat:touch ${b.t}/PWNED #'{}}`));
    expect(fs.existsSync(path.join(b.home, '.profile'))).toBe(false);
  });

  test('under bash: allow, `rm -rf {~/.ssh,{}}` asks, and ~/.ssh stays', () => {
    const b = box();
    expectAsked(bash(b, `rm -rf {${b.home}/.ssh,{}}`, ['--config', b.allow]));
    expect(fs.existsSync(path.join(b.home, '.ssh/id_ed25519'))).toBe(true);
  });
});

describe('B2: text the parser keeps in a token of its own', () => {
  test('`git log -p$""` asks in a repository with a tracked secret', () => expectAsked(bash(repo(), 'git log -p$""')));

  test.each([
    ['docs$', 'cat docs$'],
    ['no$tes', 'cat no"$"tes'],
    ['a  b', 'cat a"  "b'],
  ])('a link named %j to a secret: %j asks', (link, command) => {
    const b = box();
    fs.symlinkSync(path.join(b.home, '.ssh/id_ed25519'), path.join(b.ws, link));
    expectAsked(bash(b, command));
  });

  test.each(['git clean -fdx$""', 'sed -i$"" s/X=1/PWNED/ ~/.bashrc', 'find ~/.ssh -delete$""'])('under bash: allow, %j asks', (command) => {
    const b = repo();
    expectAsked(bash(b, command, ['--config', b.allow]));
    expect(fs.readFileSync(path.join(b.home, '.bashrc'), 'utf8')).toBe('X=1\n');
  });
});

describe('B3: what a git command prints, listed from its own walk options', () => {
  test.each(['git show --all', 'git show --branches', 'git show --do-walk', 'git log -p -g', 'git log -p --walk-reflogs', 'git log -p --full-diff -- README.md', 'git log -p --boundary HEAD^..HEAD', 'git diff --submodule=diff', 'git log -p --notes', 'git log -p --alternate-refs'])('%j asks', (command) => {
    const b = repo();
    git(b.ws, b.home, 'branch', 'old', 'HEAD~1'); // a second tip, whose commit changed .env
    expectAsked(bash(b, command));
  });

  test.each(['git status --verb', 'git status --ve', 'git status -vv'])('%j asks with a staged secret', (command) => {
    const b = repo();
    fs.writeFileSync(path.join(b.ws, '.env'), 'SECRET=hunter2\n');
    git(b.ws, b.home, 'add', '.env');
    expectAsked(bash(b, command));
  });

  test('confined by a pathspec without --full-diff, the patch runs', () => {
    expect(bash(repo(), 'git log -p -- README.md')).toMatchObject({ ok: true, permission: { decision: 'allow' } });
  });
});

test('B4: outside a repository, `git diff dir dir` is --no-index: it asks', () => {
  const b = box();
  writeFiles(b.ws, { '.vscode/settings.json': '{"x.token":"TOKEN_ABC"}\n' });
  expectAsked(bash(b, 'git diff empty .'));
});

test('B5: `git remote -v` asks when what it prints holds a token (insteadOf, a query string)', () => {
  const b = repo();
  git(b.ws, b.home, 'remote', 'add', 'origin', 'https://gitlab.example/org/repo.git');
  fs.writeFileSync(path.join(b.home, '.gitconfig'), '[url "https://oauth2:TOKEN_ABC123@gitlab.example/"]\n\tinsteadOf = https://gitlab.example/\n');
  expectAsked(bash(b, 'git remote -v'));
  fs.rmSync(path.join(b.home, '.gitconfig'));
  git(b.ws, b.home, 'remote', 'add', 'o2', 'https://gitlab.example/x.git?private_token=TOKEN_QS');
  expectAsked(bash(b, 'git remote -v'));
});

describe('B6: programs a repository names, which the config check missed', () => {
  test('a post-index-change hook: `git status` does not run it', () => {
    const b = repo();
    writeFiles(b.ws, { '.git/hooks/post-index-change': `#!/bin/sh\ntouch ${b.t}/HOOK-RAN\n` });
    fs.chmodSync(path.join(b.ws, '.git/hooks/post-index-change'), 0o755);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(b.ws, 'README.md'), later, later);
    bash(b, 'git status');
    bash(b, 'git status', liveControl(b.t));
    expect(fs.existsSync(path.join(b.t, 'HOOK-RAN'))).toBe(false);
  });

  test('core.alternateRefsCommand asks', () => {
    const b = repo();
    git(b.ws, b.home, 'config', 'core.alternateRefsCommand', `touch ${b.t}/ALT-RAN`);
    expectAsked(bash(b, 'git log --alternate-refs --oneline'));
    expect(fs.existsSync(path.join(b.t, 'ALT-RAN'))).toBe(false);
  });

  test('a submodule whose .git folder is in the work tree, with a clean filter, asks', () => {
    const b = repo();
    const sub = path.join(b.ws, 'sub');
    writeFiles(sub, { 'a.txt': 'x\n', '.gitattributes': '*.txt filter=y\n' });
    git(sub, b.home, 'init', '-q', '.');
    git(sub, b.home, 'add', '.');
    git(sub, b.home, 'commit', '-qm', 's');
    git(b.ws, b.home, 'update-index', '--add', '--cacheinfo', `160000,${git(sub, b.home, 'rev-parse', 'HEAD').trim()},sub`);
    git(sub, b.home, 'config', 'filter.y.clean', `sh -c 'touch ${b.t}/SUB-CLEAN; cat'`);
    fs.appendFileSync(path.join(sub, 'a.txt'), 'y\n');
    expectAsked(bash(b, 'git status'));
    expect(fs.existsSync(path.join(b.t, 'SUB-CLEAN'))).toBe(false);
  });
});

describe('B7: under bash: allow, writes outside the workspace the destructive check missed', () => {
  test.each([
    'patch ~/.bashrc fix.patch',
    "sed -n 'w ~/.bashrc' three.txt",
    'sed -n s/1/x/w/tmp/x three.txt',
    'git log -1 --format=tformat:EVIL --output=~/.bashrc',
    'git diff HEAD~1 --output ~/.bashrc',
    'git archive -o ~/.bashrc HEAD',
    'git format-patch -o ~ HEAD~1',
    'split -l1 -a1 three.txt ~/.bashr',
    "tar -cf /dev/null README.md --checkpoint=1 --checkpoint-action=exec='rm -rf ~/.ssh'",
    "python3 -c 'import shutil; shutil.rmtree(\"/tmp/x\")'",
    "awk 'BEGIN{print \"EVIL\" > \"/tmp/x\"}'",
    "perl -e 'unlink \"/tmp/x\"'",
    "node -e 'require(\"fs\").rmSync(\"/tmp/x\")'",
    'rsync three.txt ~/.bashrc --exclude x',
    'rsync --log-file=~/.bashrc three.txt copy.txt',
  ])('%j asks, and nothing in HOME changes', (command) => {
    const b = repo();
    const outcome = bash(b, command, ['--config', b.allow]);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    expect(fs.readFileSync(path.join(b.home, '.bashrc'), 'utf8')).toBe('X=1\n');
    expect(fs.existsSync(path.join(b.home, '.ssh/id_ed25519'))).toBe(true);
  });

  test.each(["sed -n 's/1/x/p' three.txt", "sed 's/we/us/g' three.txt", "awk '{print $1}' three.txt", 'git log -1 --oneline', 'python3 --version'])('%j still runs', (command) => {
    const b = repo();
    expect(bash(b, command, ['--config', b.allow])).toMatchObject({ ok: true, permission: { decision: 'allow' } });
  });
});
