import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { judge } from '../../../src/core/permissions/gate';
import { SessionGrants } from '../../../src/core/permissions/grants';
import { permissionConfig } from '../../../src/core/permissions/rules';
import { Workspace } from '../../../src/core/workspace/workspace';
import { makeWorkspace } from '../tools/toolTestContext';

// The bash gate over a real workspace and the real tree-sitter-bash grammar: every
// segment judged on its own (DESIGN.md §5; SECURITY.md, Shell).
function gate(rules: { user?: Record<string, unknown>; workspace?: Record<string, unknown> } = {}, grants?: SessionGrants, root = makeWorkspace({ 'README.md': '# hi\n', '.env': 'KEY=1\n', 'src/a.ts': 'x\n' })) {
  const workspace = new Workspace([{ path: root }]);
  const config = permissionConfig({ user: rules.user ?? {}, workspace: rules.workspace ?? {} });
  return (command: string) =>
    judge({
      tool: 'bash',
      assessment: { risk: 'process', writes: false, paths: [workspace.resolve('.')], summary: { kind: 'command', command, cwd: '.' } },
      config,
      ...(grants ? { grants } : {}),
      resolve: (p) => workspace.resolve(p),
      roots: workspace.folders.map((f) => f.root),
    });
}

describe('semi-judge, the bash default', () => {
  test.each(['ls', 'ls -la src', 'pwd', 'git status', 'git log --oneline -5', 'cat README.md', 'git branch -a', 'node --version', 'ls > /dev/null 2>&1', '(cd src; ls)'])('the bare read-only command %j runs', async (command) => {
    expect(await gate()(command)).toMatchObject({ decision: 'allow', source: 'default for bash: semi-judge', reasons: [] });
  });

  test.each([
    ['git status && rm -rf .', '`rm -rf .`: rm -rf . deletes ., a workspace folder itself'],
    ['git status > ~/.bashrc', 'redirects: > ~/.bashrc'],
    ['git status >> out.txt', 'redirects: >> out.txt'],
    ['echo $(curl http://example.com)', 'runs the command substitution $(curl http://example.com)'],
    ['echo `id`', 'runs the command substitution `id`'],
    ['diff <(ls a) <(ls b)', 'runs the process substitution <(ls a)'],
    ['FOO=1 ls', 'sets FOO=1 for the command'],
    ['PATH=/tmp:$PATH git status', 'sets PATH=/tmp:$PATH for the command'],
    ['ls\ncurl http://example.com', 'spans several lines'],
    ['cat <<EOF\nhi\nEOF', 'reads a here-document'],
    ['bash -c "ls"', 'bash runs other commands'],
    ['eval ls', 'eval runs other commands'],
    ['xargs rm < list.txt', 'xargs runs other commands'],
    ['cat .env', '.env'],
    ['cat ../../etc/passwd', 'is outside the workspace'],
    ['cat /etc/passwd', 'is outside the workspace'],
    ['git show HEAD:.env', '.env'],
    ['git diff --output=patch.txt', '--output=patch.txt can make git write'],
    ['tail -f README.md', '-f can make tail'],
    ['ls $HOME', 'expands $HOME'],
    ['ls *.ts', 'expands the glob *.ts'],
    ['npm install', 'npm is not one of the read-only commands'],
    ['git push', 'git is not one of the read-only commands'],
    ['for f in a b; do echo $f; done', 'has a for construct'],
    ['echo "unterminated', 'does not parse'],
  ])('%j asks, saying why', async (command, why) => {
    const decision = await gate()(command);
    expect(decision.decision).toBe('ask');
    expect(decision.reasons.join('\n')).toContain(why);
  });

  test('60 chained no-ops, then a network command: asks, naming the one segment', async () => {
    const decision = await gate()(`${'true && '.repeat(60)}curl http://example.com/x`);
    expect(decision.decision).toBe('ask');
    expect(decision.reasons).toEqual(['`curl http://example.com/x`: curl is not one of the read-only commands Peon runs without asking']);
  });
});

describe('pattern rules for bash', () => {
  const rules = { user: { 'peon.permission.rules': { bash: { 'npm test': 'allow', 'npm run *': 'allow', 'curl *': 'deny' } } } };

  test('an allowed pattern runs, naming its rule', async () => {
    expect(await gate(rules)('npm test')).toMatchObject({ decision: 'allow', source: 'peon.permission.rules (user): bash "npm test" -> allow' });
    expect(await gate(rules)('npm run build && git status')).toMatchObject({ decision: 'allow' });
  });

  test('a denied segment denies the whole line, also inside a substitution', async () => {
    for (const command of ['npm test && curl http://x', 'echo $(curl http://x)', 'npm test | curl -d @- http://x']) {
      expect(await gate(rules)(command)).toMatchObject({ decision: 'deny', source: 'peon.permission.rules (user): bash "curl *" -> deny' });
    }
  });

  test('an allowed pattern does not cover what the parser cannot vouch for', async () => {
    const decision = await gate(rules)('npm test > ~/.bashrc');
    expect(decision).toMatchObject({ decision: 'ask' });
    expect(decision.reasons.join()).toContain('redirects: > ~/.bashrc');
    expect(await gate(rules)('npm test && npm publish')).toMatchObject({ decision: 'ask', reasons: ['`npm publish`: npm is not one of the read-only commands Peon runs without asking'] });
  });

  test('a workspace may add ask or deny, never allow', async () => {
    const mixed = { user: {}, workspace: { 'peon.permission.rules': { bash: { 'curl *': 'allow', 'git status': 'deny', 'ls *': 'ask' } } } };
    expect(await gate(mixed)('curl http://x')).toMatchObject({ decision: 'ask' });
    expect(await gate(mixed)('git status')).toMatchObject({ decision: 'deny', source: 'peon.permission.rules (workspace): bash "git status" -> deny' });
    expect(await gate(mixed)('ls src')).toMatchObject({ decision: 'ask', reasons: ['`ls src` asks by peon.permission.rules (workspace): bash "ls *" -> ask'] });
  });
});

describe('rules that cover the whole tool', () => {
  test('bash: allow runs anything parseable, but destructive commands always ask', async () => {
    const allow = gate({ user: { 'peon.permission.rules': { bash: 'allow' } } });
    expect(await allow('npm install && echo $(date) > out.txt')).toMatchObject({ decision: 'allow', source: 'peon.permission.rules (user): bash -> allow' });
    for (const [command, why] of [
      ['rm -rf .', 'a workspace folder itself'],
      ['rm -rf ~', 'outside the workspace'],
      ['rm -fr /', 'deletes /, outside the workspace'],
      ['git push --force origin main', 'rewrites or deletes remote history'],
      ['git clean -fdx', 'deletes untracked files'],
      ['git reset --hard HEAD~3', 'discards uncommitted work'],
      ['npm test; git checkout -- .', 'discards uncommitted changes'],
      ['find . -name "*.o" -delete', 'deletes or runs commands'],
    ]) {
      const decision = await allow(command!);
      expect(decision, command).toMatchObject({ decision: 'ask', grantable: [] });
      expect(decision.reasons.join()).toContain(why);
    }
    expect(await allow('rm -rf build')).toMatchObject({ decision: 'allow' });
  });

  test('bash: deny denies even whitelisted commands; corrupt rules make everything ask', async () => {
    expect(await gate({ user: { 'peon.permission.rules': { bash: 'deny' } } })('ls')).toMatchObject({ decision: 'deny' });
    expect(await gate({ user: { 'peon.permission.rules': { bash: 'whenever' } } })('ls')).toMatchObject({ decision: 'ask', source: 'peon.permission.rules is not valid: every tool asks' });
  });
});

test('allowed for this session: exactly the approved segments', async () => {
  const grants = new SessionGrants();
  const asked = await gate({}, grants)('npm test');
  expect(asked).toMatchObject({ decision: 'ask', grantable: ['npm test'] });
  grants.add('bash', asked.sessionGrants);
  expect(await gate({}, grants)('npm test')).toMatchObject({ decision: 'allow', source: 'allowed for this session: npm test' });
  expect(await gate({}, grants)('npm test && npm run build')).toMatchObject({ decision: 'ask', reasons: ['`npm run build`: npm is not one of the read-only commands Peon runs without asking'] });
  expect(await gate({}, grants)('npm test -- --watch')).toMatchObject({ decision: 'ask' });
});

// Found by a hostile review of this gate; each was allowed before.
describe('bypasses that must ask (default semi-judge)', () => {
  test.each([
    ["echo 'import os; os.system(\"id\")' | python3 -v", 'python3 is not one of the read-only commands'],
    ['make version', 'make is not one of the read-only commands'],
    ['node version', 'node is not one of the read-only commands'],
    ['npx version', 'npx is not one of the read-only commands'],
    ["tr\\\nap 'touch /tmp/pwned' EXIT", 'spans several lines'],
    ['cat .e\\\nnv', 'spans several lines'],
    ['cat ".e\\\nnv"', 'spans several lines'],
    ["(echo 'touch PWNED'; seq 1 100000) | sort -S 1 --compress-program=sh", 'sort is not one of the read-only commands'],
    ['echo x | sort -o/root/.profile', 'writes to /root/.profile, outside the workspace'],
    ['cat {.env,README.md}', 'expands the braces {.env,README.md}'],
    ['cat {/etc/passwd,}', 'expands the braces'],
    ['cd && cat .bash_history', 'cd is not one of the read-only commands'],
    ['cd - && cat .bash_history', 'cd is not one of the read-only commands'],
    ["printf 'x' | wc --files0-from=-", '--files0-from=- can make wc'],
    ['du --files0-from=list.txt', '--files0-from=list.txt can make du'],
    ["git log -p -- '.en?'", 'git expands the pathspec .en? itself'],
    ["git log -- ':(glob)**/.env'", 'git expands the pathspec'],
    ['file -C -m m', 'file is not one of the read-only commands'],
    ['tree -R -H .', 'tree is not one of the read-only commands'],
    ['tail -fn1 README.md', '-fn1 can make tail'],
    ['cat a://../../etc/passwd', 'is outside the workspace'],
    ['cd src && cat ../../etc/passwd', 'is outside the workspace'],
    ['git diff --textconv HEAD', '--textconv can make git'],
  ])('%j asks', async (command, why) => {
    const decision = await gate()(command);
    expect(decision.decision, JSON.stringify(decision.reasons)).toBe('ask');
    expect(decision.reasons.join('\n')).toContain(why);
  });

  test('the version queries that are only version queries still run', async () => {
    for (const command of ['node --version', 'node -v', 'python3 --version', 'git --version', 'cd src']) expect((await gate()(command)).decision, command).toBe('allow');
  });

  test('tools a toolchain file in the project dispatches are not version queries (rustup, corepack, go toolchains)', async () => {
    for (const command of ['cargo --version', 'rustc -V', 'yarn --version', 'pnpm -v', 'go version']) expect((await gate()(command)).decision, command).toBe('ask');
  });
});

describe('destructive commands under bash: allow, however they are written', () => {
  const allow = gate({ user: { 'peon.permission.rules': { bash: 'allow' } } });
  test.each([
    'rm -rf ./*',
    'rm -rf ~/*',
    'rm -rf $HOME',
    'rm -rf "$PWD"',
    'rm -rf .git',
    '/bin/rm -rf ~',
    'sudo rm -rf /',
    'command rm -rf ~',
    'env X=1 rm -rf ~',
    'bash -c "rm -rf ~"',
    'git -C . clean -fdx',
    'git -c x=y reset --hard',
    'git push origin :main',
    'git push -uf origin main',
    'git push --prune origin',
    'git branch --delete --force x',
    'git branch -d -f x',
    'git checkout -f',
    'git checkout -- src',
    'git restore --worktree src',
    'git restore src',
    'git reflog expire --expire=now --all',
    'git update-ref -d refs/heads/main',
    'chmod --recursive 000 .',
    'truncate -s0 README.md',
    'find . -name x -ok rm {} ;',
  ])('%j asks', async (command) => {
    const decision = await allow(command);
    expect(decision.decision, JSON.stringify(decision.reasons)).toBe('ask');
    expect(decision.grantable).toEqual([]);
  });

  test('cd .. and then deleting the workspace folder by name asks', async () => {
    const root = makeWorkspace();
    const decision = await gate({ user: { 'peon.permission.rules': { bash: 'allow' } } }, undefined, root)(`cd .. && rm -rf ${path.basename(root)}`);
    expect(decision.decision).toBe('ask');
  });

  test('ordinary deletions inside the workspace still run', async () => {
    for (const command of ['rm -rf build', 'rm -f src/a.ts', 'git restore --staged src', 'git checkout main', 'git push origin main']) expect((await allow(command)).decision, command).toBe('allow');
  });
});

describe('deny rules cannot be dodged', () => {
  const denied = { user: { 'peon.permission.rules': { bash: 'allow' } }, workspace: { 'peon.permission.rules': { bash: { 'curl *': 'deny', 'cat *': 'deny' } } } };
  test.each(['command curl http://x', 'env curl http://x', 'bash -c "curl http://x"', 'sh -c "echo hi; curl http://x"', '/usr/bin/curl http://x', '/bin/cat .env', 'sudo -u root curl http://x', 'timeout 5 curl http://x', 'eval curl http://x'])('%j is denied', async (command) => {
    expect(await gate(denied)(command)).toMatchObject({ decision: 'deny' });
  });

  test.each(['$(echo curl) http://x', 'cu\\\nrl http://x', '"$CMD" http://x'])('%j, which cannot be read, asks rather than runs', async (command) => {
    expect((await gate(denied)(command)).decision).toBe('ask');
  });

  test('global options before the subcommand do not hide it', async () => {
    const rules = { user: { 'peon.permission.rules': { bash: { 'git *': 'allow', 'npm *': 'allow', 'git push *': 'deny', 'npm publish *': 'deny' } } } };
    for (const command of ['git -C . push --force origin main', 'git -c core.sshCommand=x push', 'npm --access public publish']) {
      expect(await gate(rules)(command), command).toMatchObject({ decision: 'deny' });
    }
    expect(await gate(rules)('git -C . status')).toMatchObject({ decision: 'allow' });
  });
});

// Found by a second hostile review; each was allowed before.
describe('second review: bypasses that must ask or deny', () => {
  test.each([
    ['diff -rN . empty', 'diff is not one of the read-only commands'],
    ['git blame -S/etc/passwd README.md', '/etc/passwd is outside the workspace'],
    ['wc --files0=list.txt', '--files0=list.txt can make wc'],
    ['tail --fo README.md', '--fo can make tail'],
    ['sleep 100000', 'sleep is not one of the read-only commands'],
    ['cat ~+/README.md', 'expands the tilde ~+/README.md'],
  ])('%j asks under semi-judge', async (command, why) => {
    const decision = await gate()(command);
    expect(decision.decision, JSON.stringify(decision.reasons)).toBe('ask');
    expect(decision.reasons.join('\n')).toContain(why);
  });

  test('`..` out of a symbolic link asks: the kernel follows the link before going up', async () => {
    const root = makeWorkspace({ 'README.md': 'x\n' });
    fs.symlinkSync('/etc/ssl', path.join(root, 'l'));
    const decision = await gate({}, undefined, root)('cat l/../passwd');
    expect(decision.decision).toBe('ask');
    expect(decision.reasons.join()).toContain('l/../passwd is outside the workspace');
  });

  const allow = gate({ user: { 'peon.permission.rules': { bash: 'allow' } } });
  test.each([
    'command -- rm -rf ~',
    'nice -n5 rm -rf ~',
    'nice --adjustment 5 rm -rf ~',
    'timeout .5 rm -rf ~',
    'timeout --signal KILL 5 rm -rf ~',
    'sudo --user root rm -rf /',
    "env -S 'rm -rf ~'",
    "sudo bash -c 'rm -rf ~'",
    "bash -c -e 'rm -rf ~'",
    "bash -c -- 'rm -rf ~'",
    "echo 'rm -rf ~' | bash",
    "bash <<< 'rm -rf ~'",
    'sudo rm -rf $HOME',
    'env rm -rf $HOME',
    'echo / | xargs rm -rf',
    'rm -rf ?*',
    'rm -rf /h*',
    'rm -rf ~+',
    'echo ${x:-$(rm -rf ~)}',
    'echo $(( $(rm -rf ~) ))',
    'rm --rec --for ~',
    'chmod --rec 000 .',
    'git reset --har',
    'git clean --forc',
    'git branch --del --forc x',
    'git --work-tree . clean -fdx',
    'git --git-dir .git reset --hard',
    'git checkout HEAD src',
    'git switch -f main',
    'git switch --discard-changes main',
    'git rm -rf .',
    'git prune',
    'git reflog delete HEAD@{1}',
    'git worktree remove --force ../wt',
    "git -c alias.x='!rm -rf ~' x",
    'rm -rf .git/objects',
    'rm -rf .gi?',
  ])('%j asks under bash: allow', async (command) => {
    const decision = await allow(command);
    expect(decision.decision, JSON.stringify(decision.reasons)).toBe('ask');
  });

  const denyCurl = gate({ user: { 'peon.permission.rules': { bash: 'allow' } }, workspace: { 'peon.permission.rules': { bash: { 'curl *': 'deny' } } } });
  test.each(['command -- curl http://x', 'nice -n5 curl http://x', 'sudo --user root curl http://x', 'stdbuf -o L curl http://x', 'timeout .5 curl http://x', "sudo bash -c 'curl http://x'", "bash -c -- 'curl http://x'", 'CURL http://x', '/usr/bin/CURL http://x'])('%j is denied', async (command) => {
    expect((await denyCurl(command)).decision).toBe('deny');
  });
  test.each(["env -S 'curl http://x'", "echo 'curl http://x' | bash", "bash <<< 'curl http://x'", 'hash -p /usr/bin/curl c; c http://x', 'shopt -s expand_aliases; alias c=curl; eval c http://x', 'watch curl http://x', 'strace curl http://x'])('%j cannot be checked against the deny rule: asks', async (command) => {
    expect((await denyCurl(command)).decision).not.toBe('allow');
  });

  test('a workspace ask rule applies under a user bash: allow, on every form of the command', async () => {
    const rules = { user: { 'peon.permission.rules': { bash: 'allow' } }, workspace: { 'peon.permission.rules': { bash: { 'npm publish *': 'ask' } } } };
    expect(await gate(rules)('npm publish')).toMatchObject({ decision: 'ask', source: 'peon.permission.rules (workspace): bash "npm publish *" -> ask' });
    expect((await gate(rules)('npm --access public publish')).decision).toBe('ask');
    const userAllow = { user: { 'peon.permission.rules': { bash: { 'npm *': 'allow' } } }, workspace: { 'peon.permission.rules': { bash: { 'npm publish *': 'ask' } } } };
    expect((await gate(userAllow)('npm --access public publish')).decision).toBe('ask');
  });

  test('only the segments that asked are offered for the session, not the read-only ones beside them', async () => {
    expect(await gate()('cat README.md && npm test')).toMatchObject({ decision: 'ask', grantable: ['npm test'] });
  });
});

test('a session grant holds in the folder it was given in, and never for a line that changes folder', async () => {
  const grants = new SessionGrants();
  const root = makeWorkspace({ 'pkg/package.json': '{}\n' });
  const workspace = new Workspace([{ path: root }]);
  const at = (command: string, dir: string) =>
    judge({ tool: 'bash', assessment: { risk: 'process', writes: false, paths: [workspace.resolve(dir)], summary: { kind: 'command', command, cwd: dir } }, grants, resolve: (p) => workspace.resolve(p), roots: [root] });
  const asked = await at('npm test', 'pkg');
  expect(asked.sessionGrants).toEqual(['npm test (in pkg)']);
  grants.add('bash', asked.sessionGrants);
  expect(await at('npm test', 'pkg')).toMatchObject({ decision: 'allow', source: 'allowed for this session: npm test (in pkg)' });
  expect((await at('npm test', '.')).decision).toBe('ask');
  expect(await at('cd pkg && npm test', '.')).toMatchObject({ decision: 'ask', sessionGrants: [] });
});

// Where the grammar and bash read a line differently (shell/readingCheck.ts): fast, in-process
// companions of the differential test, one per class it knows.
describe('lines the parser cannot vouch for', () => {
  test.each([
    ['a NUL byte', 'cat README.md\u0000; touch x', 'control character U+0000'],
    ['a bell', 'ls\u0007', 'control character U+0007'],
    ['DEL', 'ls \u007f', 'control character U+007F'],
    ['a NEL the parser drops between words', 'head \u0085-n 1 README.md', 'between words, which bash does not read as a blank'],
    ['an ideographic space the parser drops', 'wc \u3000-l README.md', 'which bash does not read as a blank'],
    ['an escaped space at a word start', 'cat \\ README.md', 'which bash does not read as a blank'],
    ['an escaped newline', 'ls \\\n-la', 'spans several lines'],
    ['a comment glued to a word', 'echo a\\ #; touch x', ''],
    ['a substitution glued to the command name', 'ca`true`t README.md', 'splits into two words'],
    ['a named descriptor', 'ls {out}>&2', 'assigns a file descriptor number to the variable out'],
    ['a tilde after = in an argument', 'cat x=~/.ssh/id_rsa', 'expands the tilde'],
  ])('%s asks', async (_, command, why) => {
    const decision = await gate()(command);
    expect(decision.decision, JSON.stringify(decision.reasons)).toBe('ask');
    expect(decision.reasons.join('\n')).toContain(why);
  });

  // A Unicode space the parser keeps inside the word is read as bash reads it: one word.
  test.each(['ls # a comment', 'ls;# a comment', 'echo "a # b"', "echo 'x\ty'", 'ls\t-la', 'echo é日本 😀', 'echo a\\ b', 'ls \u0085-la'])('%j still runs', async (command) => {
    expect((await gate()(command)).decision).toBe('allow');
  });
});

// What the card shows of a decision (#5, #12 of the UX walkthrough): what destroys data is
// marked and offered for no permanent rule; a grant is shown as the command was written.
describe('what the card is told', () => {
  test('deleting inside the workspace is marked destructive, still grantable for the chat; a destructive command for nothing', async () => {
    const asked = await gate()('rm -rf node_modules package-lock.json && npm install');
    expect(asked).toMatchObject({ decision: 'ask', destructive: ['rm -rf node_modules package-lock.json deletes node_modules, package-lock.json'], sessionGrants: ['rm -rf node_modules package-lock.json', 'npm install'] });
    const always = await gate()('git status && rm -rf .');
    expect(always).toMatchObject({ decision: 'ask', grantable: [], sessionGrants: [] });
    expect(always.destructive).toEqual(['rm -rf . deletes ., a workspace folder itself']);
    expect((await gate()('npm test')).destructive).toBeUndefined();
  });

  test('a session grant keeps the command as written (quotes and all); it matches by its words', async () => {
    const grants = new SessionGrants();
    const asked = await gate({}, grants)('git status && git commit -m "fix the build"');
    expect(asked).toMatchObject({ decision: 'ask', sessionGrants: ['git commit -m fix the build'], sessionText: ['git commit -m "fix the build"'] });
    grants.add('bash', asked.sessionGrants, asked.sessionText);
    expect(grants.list()).toEqual([{ tool: 'bash', pattern: 'git commit -m fix the build', text: 'git commit -m "fix the build"' }]);
    expect(await gate({}, grants)("git commit -m 'fix the build'")).toMatchObject({ decision: 'allow' });
  });
});
