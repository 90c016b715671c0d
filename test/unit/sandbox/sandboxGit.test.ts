// The Sandbox cases about what runs programs outside the sandbox (SECURITY.md "Sandbox",
// the hostile review's F1–F5 and F10): a repository's config, hooks and included files
// at any depth; a `.git` or `.vscode` a command makes; a worktree's git folder; a home
// folder opened as the workspace. Through the built `peon` command, as root and as an
// ordinary user; every assertion is on the host side, and each ends with git itself run
// on the host, where a planted core.fsmonitor would leave its mark.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanUp, makeRunners, result, runCli, workspaceFor, type Runner } from './sandboxKit';

const runners = makeRunners();
afterAll(cleanUp);

/** `git status` in `dir` on the host, as the runner: what the person (or VS Code's git) does next. */
function hostGit(runner: Runner, dir: string): void {
  const user = runner.name === 'user' ? ['setpriv', `--reuid=${runner.uid}`, `--regid=${runner.gid}`, '--clear-groups', '--'] : [];
  try {
    execFileSync(user[0] ?? 'git', [...user.slice(1), ...(user.length > 0 ? ['git'] : []), '-C', dir, 'status', '--short'], { env: { PATH: process.env.PATH, HOME: runner.home }, stdio: 'ignore' });
  } catch {
    // not a repository, or git refused: what matters is whether the mark appeared
  }
}

const chown = (runner: Runner, dir: string): void => void execFileSync('chown', ['-R', `${runner.uid}:${runner.gid}`, dir]);
const blocked = (dir: string, name: string): string[] => fs.readdirSync(dir).filter((n) => n.startsWith(`${name}.peon-blocked-`));

describe.each(runners)('as $name', (runner: Runner) => {
  test('.git, a nested repository and its hooks cannot be changed or moved aside; nor can one at depth 3', async () => {
    const ws = workspaceFor(runner, { 'lib/README.md': 'nested\n', 'deep/a/b/README.md': 'deeper\n' });
    for (const dir of [ws, path.join(ws, 'lib'), path.join(ws, 'deep/a/b')]) execFileSync('git', ['init', '-q', dir]);
    chown(runner, ws);
    const configs = ['.git/config', 'lib/.git/config', 'deep/a/b/.git/config'].map((f) => [path.join(ws, f), fs.readFileSync(path.join(ws, f), 'utf8')] as const);
    const mark = path.join(runner.outside, 'PWNED');
    const command = [
      `git config core.fsmonitor "touch ${mark}"; echo "config=$?"`,
      `git -C lib config core.fsmonitor "touch ${mark}"; echo "nested=$?"`,
      `git -C deep/a/b config core.fsmonitor "touch ${mark}"; echo "deep=$?"`,
      'echo "#!/bin/sh" > .git/hooks/pre-commit; echo "hook=$?"',
      'mv .git .git.old; echo "mv=$?"',
      'echo ok > tracked.txt; echo "work=$?"',
    ].join('; ');
    const r = await result(runCli(runner, ws, 'bash', { command }));
    for (const step of ['config', 'nested', 'deep', 'hook', 'mv']) expect(r.output).toMatch(new RegExp(`^${step}=[1-9]`, 'm'));
    expect(r.output).toMatch(/^work=0$/m);
    for (const [file, before] of configs) expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    for (const dir of [ws, path.join(ws, 'lib'), path.join(ws, 'deep/a/b')]) hostGit(runner, dir);
    expect(fs.existsSync(mark)).toBe(false);
  });

  test('a missing .git or .vscode cannot be made while the command runs, and nothing is left where they would be', async () => {
    const ws = workspaceFor(runner);
    const mark = path.join(runner.outside, 'PWNED');
    const command = `git init -q . ; echo "init=$?"; mkdir -p .vscode; echo '{}' > .vscode/tasks.json; echo "vscode=$?"; echo '{}' > .mcp.json; echo "mcp=$?"; echo x > .envrc; echo "envrc=$?"`;
    const r = await result(runCli(runner, ws, 'bash', { command }));
    expect(r.output).toMatch(/^init=[1-9]/m);
    expect(r.output).toMatch(/^vscode=[1-9]/m);
    expect(r.output).toMatch(/^mcp=[1-9]/m);
    // .envrc waits for `direnv allow`: not covered, moved aside once the command ends.
    expect(r.output).toMatch(/^envrc=0$/m);
    expect(r.output).toContain(`${path.join(ws, '.envrc')} was made by this sandboxed command and moved to .envrc.peon-blocked-`);
    expect(fs.readdirSync(ws)).toEqual([expect.stringMatching(/^\.envrc\.peon-blocked-[0-9a-f]{12}$/)]); // the empty covers are gone
    expect(r.output.match(/was made/g)).toHaveLength(1);
    hostGit(runner, ws);
    expect(fs.existsSync(mark)).toBe(false);
  });

  test('an empty .envrc made where nothing was covered (here, and one folder down) is moved aside like any other, not taken for a cover and deleted', async () => {
    const ws = workspaceFor(runner, { 'sub/README.md': 'x\n' });
    const r = await result(runCli(runner, ws, 'bash', { command: ': > .envrc; : > sub/.envrc; echo "made=$?"' }));
    expect(r.output).toMatch(/^made=0$/m);
    expect(blocked(ws, '.envrc')).toEqual([expect.stringMatching(/^\.envrc\.peon-blocked-[0-9a-f]{12}$/)]);
    expect(blocked(path.join(ws, 'sub'), '.envrc')).toEqual([expect.stringMatching(/^\.envrc\.peon-blocked-[0-9a-f]{12}$/)]);
    expect(r.output).toContain(`${path.join(ws, 'sub', '.envrc')} was made by this sandboxed command and moved to .envrc.peon-blocked-`);
    expect(fs.readdirSync(path.join(ws, 'sub')).sort()).toEqual([expect.stringMatching(/^\.envrc\.peon-blocked-/), 'README.md']);
  });

  test('a folder the command made a file (or unsearchable) is said, and a .git it made elsewhere is still moved aside', async () => {
    const ws = workspaceFor(runner, { 'sub/README.md': 'x\n', 'other/README.md': 'y\n' });
    const mark = path.join(runner.outside, 'PWNED');
    // As an ordinary user a folder can also be made unsearchable (root searches every folder).
    const hide = runner.name === 'user' ? 'mkdir gone && chmod 0 gone' : 'true';
    const command = `git init -q other && git -C other config core.fsmonitor "touch ${mark}"; rm -rf sub && echo > sub; ${hide}; echo done=$?`;
    const r = await result(runCli(runner, ws, 'bash', { command }));
    expect(r.output).toMatch(/^done=0$/m);
    expect(blocked(path.join(ws, 'other'), '.git')).toEqual([expect.stringMatching(/^\.git\.peon-blocked-[0-9a-f]{12}$/)]);
    expect(r.output).toContain(`${path.join(ws, 'other', '.git')} was made by this sandboxed command and moved to .git.peon-blocked-`);
    hostGit(runner, path.join(ws, 'other'));
    expect(fs.existsSync(mark)).toBe(false);
  });

  test('protected names in a folder the command made or renamed right below the workspace are moved aside', async () => {
    const ws = workspaceFor(runner, { 'sub/README.md': 'x\n' });
    const command = `mkdir -p newsub/.claude newsub/.vscode && echo '{"hooks":{}}' > newsub/.claude/settings.json && echo '{}' > newsub/.vscode/tasks.json && mv sub sub2 && mkdir sub2/.claude && echo '{}' > sub2/.claude/settings.json; echo done=$?`;
    const r = await result(runCli(runner, ws, 'bash', { command }));
    expect(r.output).toMatch(/^done=0$/m);
    expect(blocked(path.join(ws, 'newsub'), '.claude')).toHaveLength(1);
    expect(blocked(path.join(ws, 'newsub'), '.vscode')).toHaveLength(1);
    expect(blocked(path.join(ws, 'sub2'), '.claude')).toHaveLength(1);
    expect(fs.existsSync(path.join(ws, 'newsub/.claude'))).toBe(false);
    expect(fs.existsSync(path.join(ws, 'sub2/.claude'))).toBe(false);
    // What the command wrote is kept, under the new name.
    expect(fs.readFileSync(path.join(ws, 'newsub', blocked(path.join(ws, 'newsub'), '.claude')[0]!, 'settings.json'), 'utf8')).toBe('{"hooks":{}}\n');
  });

  test('a folder whose name is not UTF-8 cannot be searched for repositories: the card says so', async () => {
    const ws = workspaceFor(runner, { 'README.md': 'x\n' });
    const r = await result(runCli(runner, ws, 'bash', { command: `mkdir $'\\xff' && git init -q $'\\xff'; echo done=$?` }));
    expect(r.output).toMatch(/^done=0$/m);
    expect(r.output).toContain(`${ws}/\uFFFD (its name is not valid UTF-8) could not be searched for repositories or protected files this command may have made: check it before running git or an editor there`);
    // Also beside a folder whose real name decodes to the same text.
    const again = await result(runCli(runner, ws, 'bash', { command: `mkdir $'a\\xef\\xbf\\xbd' $'a\\xff' && git init -q $'a\\xff'; echo done=$?` }));
    expect(again.output).toMatch(/^done=0$/m);
    expect(again.output).toContain(`${ws}/a\uFFFD (its name is not valid UTF-8) could not be searched`);
  });

  test('a new folder under an old one\'s name (the old one renamed away) has its protected names moved aside; the person\'s, moved with the old folder, stay', async () => {
    const ws = workspaceFor(runner, { 'sub/.claude/settings.json': '{"mine":1}\n', 'two/.envrc': 'export MINE=1\n' });
    chown(runner, ws);
    const command = `mv sub sub_old && mkdir -p sub/.claude && echo '{"hooks":{"evil":1}}' > sub/.claude/settings.json; mv two two_old && mkdir two && echo 'touch /x' > two/.envrc; echo done=$?`;
    const r = await result(runCli(runner, ws, 'bash', { command }));
    expect(r.output).toMatch(/^done=0$/m);
    expect(blocked(path.join(ws, 'sub'), '.claude')).toHaveLength(1);
    expect(blocked(path.join(ws, 'two'), '.envrc')).toHaveLength(1);
    expect(fs.readFileSync(path.join(ws, 'sub_old/.claude/settings.json'), 'utf8')).toBe('{"mine":1}\n');
    expect(fs.readFileSync(path.join(ws, 'two_old/.envrc'), 'utf8')).toBe('export MINE=1\n');
    expect(r.output).not.toContain('sub_old');
    expect(r.output).not.toContain('two_old');
  });

  test('two folders swapped: the person\'s .vscode moved with its folder stays, with no note; a link in a folder replaced by a folder is moved aside', async () => {
    const ws = workspaceFor(runner, { 'a/.vscode/settings.json': '{"mine":1}\n', 'a/x.txt': 'x\n', 'b/y.txt': 'y\n', '.vscode/settings.json': '{}\n', 'c/z.txt': 'z\n' });
    fs.symlinkSync('../.vscode', path.join(ws, 'c/.vscode'));
    chown(runner, ws);
    const r = await result(runCli(runner, ws, 'bash', { command: `mv b z && mv a b; rm c/.vscode && mkdir c/.vscode && echo '{"tasks":1}' > c/.vscode/tasks.json; echo done=$?` }));
    expect(r.output).toMatch(/^done=0$/m);
    expect(fs.readFileSync(path.join(ws, 'b/.vscode/settings.json'), 'utf8')).toBe('{"mine":1}\n');
    expect(blocked(path.join(ws, 'b'), '.vscode')).toEqual([]);
    expect(r.output).not.toContain(path.join(ws, 'b', '.vscode'));
    expect(r.output).not.toContain('replaced by a link');
    expect(blocked(path.join(ws, 'c'), '.vscode')).toHaveLength(1);
    expect(fs.existsSync(path.join(ws, 'c/.vscode/tasks.json'))).toBe(false);
  });

  test('a repository that cannot be looked at is said, and one made after it is still moved aside; a folder made unreadable is opened again and its workspace file moved aside, with no note per name', async () => {
    if (runner.name === 'root') return; // root searches every folder
    const ws = workspaceFor(runner, { 'sub/README.md': 'x\n' });
    const mark = path.join(runner.outside, 'PWNED');
    const command = `mkdir aa && git init -q aa && chmod 644 aa; git init -q zz && git -C zz config core.fsmonitor "touch ${mark}"; echo '{}' > sub/evil.code-workspace; chmod 0 sub; echo done=$?`;
    const r = await result(runCli(runner, ws, 'bash', { command }));
    expect(r.output).toMatch(/^done=0$/m);
    expect(blocked(path.join(ws, 'zz'), '.git')).toHaveLength(1);
    hostGit(runner, path.join(ws, 'zz'));
    expect(fs.existsSync(mark)).toBe(false);
    expect(r.output).toContain(`${path.join(ws, 'aa', '.git')} could not be checked after this command`);
    // Opened again to be searched (read and search, not write): the workspace file is found and named, and no protected name that is not there is.
    expect(r.output).toContain(`${path.join(ws, 'sub')} was made unreadable by this command`);
    expect(r.output).toContain(`${path.join(ws, 'sub', 'evil.code-workspace')} was made by this sandboxed command and could not be moved aside (EACCES`);
    expect(r.output.match(/could not be moved aside/g)).toHaveLength(1);
    expect(r.output).not.toMatch(/sub\/\.(agents|claude|codex|vscode|envrc)/);
  });

  test('a .git made below the top (git init sub, a renamed folder, a crafted .git file) is moved aside under a name it cannot guess', async () => {
    const ws = workspaceFor(runner, { 'sub/README.md': 'x\n' });
    execFileSync('git', ['init', '-q', path.join(ws, 'sub')]);
    chown(runner, ws);
    const mark = path.join(runner.outside, 'PWNED');
    const command = [
      `git init -q deep/a/b && git -C deep/a/b config core.fsmonitor "touch ${mark}"`,
      `mv sub sub_moved && git init -q sub && git -C sub config core.fsmonitor "touch ${mark}"`,
      `mkdir -p crafted/gd && printf '[core]\\n\\tfsmonitor = touch ${mark}\\n' > crafted/gd/config && mkdir crafted/gd/objects crafted/gd/refs && echo 'ref: refs/heads/main' > crafted/gd/HEAD && echo 'gitdir: gd' > crafted/.git`,
      'echo made',
    ].join(' ; ');
    const r = await result(runCli(runner, ws, 'bash', { command }));
    expect(r.output).toContain('made');
    for (const dir of ['deep/a/b', 'sub', 'crafted']) {
      expect(fs.existsSync(path.join(ws, dir, '.git'))).toBe(false);
      expect(blocked(path.join(ws, dir), '.git')).toEqual([expect.stringMatching(/^\.git\.peon-blocked-[0-9a-f]{12}$/)]);
      expect(r.output).toContain(`${path.join(ws, dir, '.git')} was made by this sandboxed command and moved to .git.peon-blocked-`);
      hostGit(runner, path.join(ws, dir));
    }
    expect(fs.existsSync(path.join(ws, 'sub_moved/.git/config'))).toBe(true); // the repository that was there, renamed only
    expect(fs.existsSync(mark)).toBe(false);
  });

  test("a worktree's git folder (the .bare layout), an included config and a hooksPath not made yet are protected too", async () => {
    const ws = workspaceFor(runner);
    execFileSync('git', ['init', '-q', '--bare', path.join(ws, '.bare')]);
    fs.writeFileSync(path.join(ws, '.git'), 'gitdir: ./.bare\n');
    execFileSync('git', ['config', '-f', path.join(ws, '.bare/config'), 'core.bare', 'false']);
    execFileSync('git', ['config', '-f', path.join(ws, '.bare/config'), 'include.path', '../shared.gitconfig']);
    execFileSync('git', ['config', '-f', path.join(ws, '.bare/config'), 'core.hooksPath', '.githooks']);
    fs.writeFileSync(path.join(ws, 'shared.gitconfig'), '[user]\n\tname = x\n');
    chown(runner, ws);
    const mark = path.join(runner.outside, 'PWNED');
    const command = [
      `git config core.fsmonitor "touch ${mark}"; echo "bare=$?"`,
      `git config -f shared.gitconfig core.fsmonitor "touch ${mark}"; echo "include=$?"`,
      `mkdir .githooks; echo "hooks=$?"`,
    ].join('; ');
    const r = await result(runCli(runner, ws, 'bash', { command }));
    for (const step of ['bare', 'include', 'hooks']) expect(r.output).toMatch(new RegExp(`^${step}=[1-9]`, 'm'));
    expect(fs.readFileSync(path.join(ws, 'shared.gitconfig'), 'utf8')).toBe('[user]\n\tname = x\n');
    expect(fs.existsSync(path.join(ws, '.githooks'))).toBe(false);
    hostGit(runner, ws);
    expect(fs.existsSync(mark)).toBe(false);
  });

  test('a protected name that is a symlink, replaced by a folder, is moved aside after', async () => {
    const ws = workspaceFor(runner, { 'shared/vscode/settings.json': '{}\n' });
    fs.symlinkSync('shared/vscode', path.join(ws, '.vscode'));
    const r = await result(runCli(runner, ws, 'bash', { command: `rm .vscode && mkdir .vscode && echo '{"tasks":[]}' > .vscode/tasks.json && echo replaced` }));
    expect(r.output).toContain('replaced');
    expect(fs.existsSync(path.join(ws, '.vscode'))).toBe(false);
    expect(blocked(ws, '.vscode')).toHaveLength(1);
  });

  test('the home folder opened as the workspace is not writable: a mask cannot be renamed out of the way', async () => {
    const secret = path.join(runner.home, '.config/gh/hosts.yml');
    fs.mkdirSync(path.dirname(secret), { recursive: true });
    fs.writeFileSync(secret, 'oauth_token: gho_peontest\n');
    chown(runner, path.join(runner.home, '.config'));
    try {
      const first = await result(runCli(runner, runner.home, 'bash', { command: 'mv ~/.config ~/.config-x; echo "mv=$?"; echo x > ~/.bashrc; echo "rc=$?"' }));
      expect(first.output).toMatch(/^mv=[1-9]/m);
      expect(first.output).toMatch(/^rc=[1-9]/m);
      const second = await result(runCli(runner, runner.home, 'bash', { command: 'cat ~/.config-x/gh/hosts.yml ~/.config/gh/hosts.yml' }));
      expect(second.output).not.toContain('gho_peontest');
      expect(fs.existsSync(secret)).toBe(true);
      expect(fs.existsSync(path.join(runner.home, '.bashrc'))).toBe(false);
    } finally {
      fs.rmSync(path.join(runner.home, '.config'), { recursive: true, force: true });
    }
  });
});
