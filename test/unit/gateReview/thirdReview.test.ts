import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { peonTool, type ToolOutcome } from '../cliHarness';
import { writeFiles } from '../tools/toolTestContext';
import { commitAll, expectAskedHiding, git, reviewBox, type ReviewBox } from './reviewHarness';

// The third hostile review of the gate, on the second one's fixes: each break reproduced
// through the built CLI with a temporary HOME.

const box = (): ReviewBox => reviewBox('peon-review3-', { '.bashrc': 'X=1\n', '.ssh/id_rsa': 'FAKE-KEY\n' }, { '.env': 'API_KEY=sk-live-SECRET\n', 'README': 'readme\n', 'src/a.c': 'code\n' });

function repo(): ReviewBox {
  const b = box();
  commitAll(b, 'init');
  fs.appendFileSync(path.join(b.ws, 'README'), 'more\n');
  git(b.ws, b.home, 'commit', '-qam', 'two');
  return b;
}

const bash = (b: { ws: string; home: string }, input: Record<string, unknown>, extra: string[] = [], cwd?: string): ToolOutcome => peonTool('bash', b.ws, input, extra, { env: { HOME: b.home }, ...(cwd ? { cwd } : {}) });

const expectAsked = (outcome: ToolOutcome): void => expectAskedHiding(outcome, /sk-live-SECRET|FAKE-KEY|c2VjcmV0/);

describe('git: what git prints that the listing did not see', () => {
  test('revisions read from standard input (--stdin) ask', () => {
    const b = repo();
    expectAsked(bash(b, { command: 'echo HEAD:Xenv | tr X . | git show --stdin' }));
    git(b.ws, b.home, 'branch', 'deploy');
    expectAsked(bash(b, { command: 'echo deploy | git log -p --stdin' }));
  });

  test('a folder of a commit named rev:path (`git diff HEAD:src HEAD:`) asks', () => expectAsked(bash(repo(), { command: 'git diff HEAD:src HEAD:' })));

  test.each(['git show -C -C', 'git show --find-copies-harder', 'git log -p -C'])('copy detection, %j, asks', (command) => {
    const b = repo();
    fs.writeFileSync(path.join(b.ws, 'env.sample'), 'API_KEY=changeme\n');
    git(b.ws, b.home, 'add', 'env.sample');
    git(b.ws, b.home, 'commit', '-qm', 'sample');
    expectAsked(bash(b, { command }));
  });

  test('diff.renames=copies asks for a patch', () => {
    const b = repo();
    git(b.ws, b.home, 'config', 'diff.renames', 'copies');
    expectAsked(bash(b, { command: 'git show' }));
  });

  test('a submodule of a submodule, with its own .git folder and a clean filter, asks: the filter does not run', () => {
    const b = repo();
    const sub = path.join(b.ws, 'sub');
    const subsub = path.join(sub, 'subsub');
    writeFiles(subsub, { '.gitattributes': '*.txt filter=y\n', 'f.txt': 'one\n' });
    git(subsub, b.home, 'init', '-q', '.');
    git(subsub, b.home, 'add', '.');
    git(subsub, b.home, 'commit', '-qm', 'i');
    git(sub, b.home, 'init', '-q', '.');
    git(sub, b.home, 'update-index', '--add', '--cacheinfo', `160000,${git(subsub, b.home, 'rev-parse', 'HEAD').trim()},subsub`);
    git(sub, b.home, 'commit', '-qm', 'i');
    git(b.ws, b.home, 'update-index', '--add', '--cacheinfo', `160000,${git(sub, b.home, 'rev-parse', 'HEAD').trim()},sub`);
    fs.appendFileSync(path.join(subsub, '.git/config'), `[filter "y"]\n\tclean = "sh -c 'touch ${b.t}/NESTED-RAN; cat'"\n`);
    fs.appendFileSync(path.join(subsub, 'f.txt'), 'two\n');
    expectAsked(bash(b, { command: 'git status' }));
    expect(fs.existsSync(path.join(b.t, 'NESTED-RAN'))).toBe(false);
  });
});

describe('paths the gate cannot resolve as the command will', () => {
  test('/proc/self/cwd names the command\'s folder, not the gate\'s: asks', () => {
    const b = box();
    writeFiles(b.ws, { '.docker/config.json': '{"auths":{"x":{"auth":"c2VjcmV0"}}}\n' });
    expectAsked(bash(b, { command: 'cat /proc/self/cwd/config.json', workdir: '.docker' }, [], b.ws));
  });

  test('a link into /proc/self asks', () => {
    const b = box();
    fs.symlinkSync('/proc/self/cwd/.env', path.join(b.ws, 'docs'));
    expectAsked(bash(b, { command: 'cat docs' }, [], b.ws));
  });

  test('under bash: allow, `cd ~ && rm -rf /proc/self/cwd/.ssh` asks, and ~/.ssh stays', () => {
    const b = box();
    expectAsked(bash(b, { command: 'cd ~ && rm -rf /proc/self/cwd/.ssh' }, ['--config', b.allow]));
    expect(fs.existsSync(path.join(b.home, '.ssh/id_rsa'))).toBe(true);
  });
});

describe('words the parser reads as operators, or as one', () => {
  test.each([
    ['==', 'cat README == README'],
    ['$', 'cat README $'],
    ['==', 'cat =="" README'],
    ['=~env', 'cat =~"env"'],
    ['{', 'cat README } {'],
  ])('with a link named %j to a key, %j asks', (link, command) => {
    const b = box();
    fs.symlinkSync(path.join(b.home, '.ssh/id_rsa'), path.join(b.ws, link));
    expectAsked(bash(b, { command }));
  });
});

describe('under bash: allow, what runs other commands or writes files still asks', () => {
  test.each([
    'flock /tmp/l rm -rf ~/.ssh',
    'taskset 1 rm -rf ~/.ssh',
    'setpriv rm -rf ~/.ssh',
    'prlimit rm -rf ~/.ssh',
    'strace -o /dev/null rm -rf ~/.ssh',
    'chrt -o 0 rm -rf ~/.ssh',
    'fakeroot rm -rf ~/.ssh',
    'unshare rm -rf ~/.ssh',
    'watch -g -n1 rm -rf ~/.ssh',
    'script -qc "rm -rf ~/.ssh" /dev/null',
    "printf '1,$d\\nw\\nq\\n' | ed -s ~/.bashrc",
    "ex -sc '%d|x' ~/.bashrc",
    "vim -es -c '%d' -c x ~/.bashrc",
    'zip -qm /tmp/x.zip ~/.ssh/id_rsa',
    'link ~/.bashrc notes.txt && cp /dev/null notes.txt',
    'rename s/id/x/ ~/.ssh/id_rsa',
  ])('%j asks, and HOME is untouched', (command) => {
    const b = box();
    const outcome = bash(b, { command }, ['--config', b.allow]);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    expect(fs.readFileSync(path.join(b.home, '.bashrc'), 'utf8')).toBe('X=1\n');
    expect(fs.existsSync(path.join(b.home, '.ssh/id_rsa'))).toBe(true);
  });

  test.each(['zip -q out.zip README', 'echo x > /dev/stdout', 'echo x 2> /dev/stderr'])('%j still runs', (command) => {
    expect(bash(box(), { command }, ['--config', box().allow])).toMatchObject({ permission: { decision: 'allow' } });
  });
});
