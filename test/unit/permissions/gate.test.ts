import { describe, expect, test } from 'vitest';
import { judge, modeFor, type PermissionMode } from '../../../src/core/permissions/gate';
import { SessionGrants } from '../../../src/core/permissions/grants';
import { joinTightening, permissionConfig } from '../../../src/core/permissions/rules';
import type { Assessment } from '../../../src/core/tools/contract';
import type { ResolvedPath } from '../../../src/core/workspace/workspace';

const at = (display: string, facts: Partial<ResolvedPath> = {}): ResolvedPath =>
  ({ input: display, display, absolute: `/ws/${display}`, canonical: `/ws/${display}`, folder: undefined, relative: display, inside: true, exists: true, isSymlink: false, secretReasons: [], protectedReason: undefined, ignored: false, ...facts }) as ResolvedPath;

const call = (writes: boolean, paths: ResolvedPath[], risk: Assessment['risk'] = writes ? 'filesystem' : 'read_only'): Assessment => ({
  risk,
  writes,
  paths,
  summary: { kind: 'generic', text: 'x' },
});

/** The decision for a `read`/`write` call under `mode` (set as a user rule). */
const decide = (assessment: Assessment, mode: PermissionMode, source = 'rule', tool = assessment.writes ? 'write' : 'read') =>
  judge({ tool, assessment, config: permissionConfig({ user: { 'peon.permission.rules': { [tool]: mode } }, workspace: {} }) }).then((d) => ({ ...d, source: d.source.replace(/^peon\.permission\.rules \(user\): .*/, source) }));

describe('semi-ask, the file tools default', () => {
  test('an ordinary read runs', async () => expect(await decide(call(false, [at('src/a.ts')]), 'semi-ask', 's')).toMatchObject({ decision: 'allow', reasons: [] }));
  test('a write asks', async () => expect(await decide(call(true, [at('src/a.ts')]), 'semi-ask', 's')).toMatchObject({ decision: 'ask', reasons: ['it changes files'] }));
  test.each([
    [{ inside: false }, 'is outside the workspace'],
    [{ secretReasons: ['.env looks like a secret'] }, '.env looks like a secret'],
    [{ ignored: true }, 'is ignored'],
    [{ protectedReason: 'VS Code workspace configuration' }, 'is protected'],
  ])('a read of a path with %j asks', async (facts, reason) => {
    const d = await decide(call(false, [at('p', facts)]), 'semi-ask', 's');
    expect(d.decision).toBe('ask');
    expect(d.reasons.join(' ')).toContain(reason);
  });
});

describe('other modes', () => {
  test('allow runs writes, but a protected path still asks', async () => {
    expect(await decide(call(true, [at('src/a.ts')]), 'allow', 'rule')).toMatchObject({ decision: 'allow' });
    expect(await decide(call(true, [at('.vscode/settings.json', { protectedReason: 'VS Code workspace configuration' })]), 'allow', 'rule')).toMatchObject({
      decision: 'ask',
      reasons: ['.vscode/settings.json is protected: VS Code workspace configuration'],
    });
  });
  test('ask always asks, deny always denies, naming the rule', async () => {
    expect(await decide(call(false, [at('a')]), 'ask', 'my rule')).toMatchObject({ decision: 'ask', source: 'my rule' });
    expect(await decide(call(true, [at('.git/config', { protectedReason: 'git' })]), 'deny', 'my rule')).toMatchObject({ decision: 'deny', source: 'my rule' });
  });
  test('the default table of DESIGN.md §5: file tools semi-ask, bash semi-judge, the rest as listed; agents and MCP fall back to ask', () => {
    for (const tool of ['read', 'write', 'edit', 'delete', 'list', 'glob', 'grep']) expect(modeFor(tool)).toEqual({ mode: 'semi-ask', source: `default for ${tool}: semi-ask` });
    expect(modeFor('mcp__x')).toEqual({ mode: 'ask', source: 'peon.permission.default: ask (built in)' });
    expect(modeFor('agent_claude')).toEqual({ mode: 'ask', source: 'peon.permission.default: ask (built in)' });
    expect(modeFor('bash').mode).toBe('semi-judge');
    const table = Object.fromEntries(['todoread', 'todowrite', 'task', 'taskstatus', 'webfetch', 'websearch', 'loadskill', 'mem-search', 'mem-read', 'enterplanmode', 'exitplanmode', 'askuserquestion'].map((t) => [t, modeFor(t).mode]));
    expect(table).toEqual({ todoread: 'allow', todowrite: 'allow', task: 'allow', taskstatus: 'allow', webfetch: 'allow', websearch: 'allow', loadskill: 'allow', 'mem-search': 'semi-ask', 'mem-read': 'semi-ask', enterplanmode: 'ask', exitplanmode: 'ask', askuserquestion: 'allow' });
  });
});

describe('peon.permission.rules and .default from user and workspace scope', () => {
  const config = (user: Record<string, unknown>, workspace: Record<string, unknown> = {}) => permissionConfig({ user, workspace });

  test('a user rule sets a tool\'s mode and names itself', () => {
    expect(modeFor('write', config({ 'peon.permission.rules': { write: 'deny' } }))).toEqual({ mode: 'deny', source: 'peon.permission.rules (user): write -> deny' });
    expect(modeFor('read', config({ 'peon.permission.rules': { write: 'deny' } })).mode).toBe('semi-ask');
  });

  test('a workspace may add ask or deny; its allow is ignored with a warning', () => {
    const c = config({ 'peon.permission.rules': { write: 'allow' } }, { 'peon.permission.rules': { write: 'deny', read: 'allow' } });
    expect(modeFor('write', c)).toEqual({ mode: 'deny', source: 'peon.permission.rules (workspace): write -> deny' });
    expect(modeFor('read', c).mode).toBe('semi-ask');
    expect(c.warnings).toEqual(['peon.permission.rules in workspace settings may only add ask or deny; its looser rule for read is ignored.']);
  });

  test('a workspace ask does not loosen a user deny', () => {
    expect(modeFor('delete', config({ 'peon.permission.rules': { delete: 'deny' } }, { 'peon.permission.rules': { delete: 'ask' } })).mode).toBe('deny');
  });

  test('corrupt rules fail closed: every tool asks, with a warning', () => {
    const c = config({ 'peon.permission.rules': { write: 'sometimes' } });
    expect(c.failClosed).toBe(true);
    expect(modeFor('read', c).mode).toBe('ask');
    expect(c.warnings[0]).toMatch(/is not valid .*every tool asks/);
  });

  test('path pattern rules: deny beats ask beats allow; a workspace may only add ask or deny', async () => {
    const c = config(
      { 'peon.permission.rules': { write: { 'src/**': 'allow', 'src/generated/**': 'deny' } } },
      { 'peon.permission.rules': { write: { 'src/secret/**': 'ask', 'docs/**': 'allow' } } },
    );
    const write = (p: string) => judge({ tool: 'write', assessment: call(true, [at(p)]), config: c });
    expect(await write('src/a.ts')).toMatchObject({ decision: 'allow', source: 'peon.permission.rules (user): write "src/**" -> allow' });
    expect(await write('src/generated/x.ts')).toMatchObject({ decision: 'deny', source: 'peon.permission.rules (user): write "src/generated/**" -> deny' });
    expect(await write('src/secret/k.ts')).toMatchObject({ decision: 'ask', source: 'peon.permission.rules (workspace): write "src/secret/**" -> ask' });
    // The workspace's allow is ignored: docs/ falls back to the default, semi-ask.
    expect(await write('docs/a.md')).toMatchObject({ decision: 'ask', source: 'default for write: semi-ask' });
    expect(c.warnings).toEqual(['peon.permission.rules in workspace settings may only add ask or deny; write "docs/**" -> allow is ignored.']);
    // A protected path asks under an allow pattern.
    const protectedWrite = await judge({ tool: 'write', assessment: call(true, [at('src/.vscode/settings.json', { protectedReason: 'VS Code workspace configuration' })]), config: c });
    expect(protectedWrite).toMatchObject({ decision: 'ask', grantable: [] });
  });

  test('allowed for this session: the exact tool and path run without asking; other paths still ask', async () => {
    const grants = new SessionGrants();
    grants.add('write', ['src/a.ts']);
    expect(await judge({ tool: 'write', assessment: call(true, [at('src/a.ts')]), grants })).toMatchObject({ decision: 'allow', source: 'allowed for this session: write src/a.ts' });
    expect(await judge({ tool: 'write', assessment: call(true, [at('src/b.ts')]), grants })).toMatchObject({ decision: 'ask', grantable: ['src/b.ts'] });
    expect(await judge({ tool: 'edit', assessment: call(true, [at('src/a.ts')]), grants })).toMatchObject({ decision: 'ask' });
    grants.revoke('write', 'src/a.ts');
    expect(await judge({ tool: 'write', assessment: call(true, [at('src/a.ts')]), grants })).toMatchObject({ decision: 'ask' });
  });

  test('peon.permission.default: user sets it, the workspace may only tighten it', () => {
    expect(modeFor('mcp__x', config({ 'peon.permission.default': 'allow' })).mode).toBe('allow');
    expect(modeFor('mcp__x', config({ 'peon.permission.default': 'allow' }, { 'peon.permission.default': 'deny' })).mode).toBe('deny');
    const loosened = config({}, { 'peon.permission.default': 'allow' });
    expect(modeFor('mcp__x', loosened).mode).toBe('ask');
    expect(loosened.warnings).toEqual(['peon.permission.default in workspace settings may only tighten; allow is ignored.']);
  });
});

describe('a .code-workspace file and a folder may both tighten: both apply', () => {
  test('modes take the stricter; rule sets are joined; a tool-wide mode beside patterns becomes **', async () => {
    expect(joinTightening('peon.permission.default', 'ask', 'deny')).toBe('deny');
    expect(joinTightening('peon.permission.default', 'deny', undefined)).toBe('deny');
    const rules = joinTightening(
      'peon.permission.rules',
      { write: 'deny', bash: 'ask', read: { 'docs/**': 'ask' } },
      { write: 'ask', bash: { 'curl *': 'deny' }, read: { 'docs/**': 'deny', 'src/**': 'ask' }, delete: 'deny' },
    );
    expect(rules).toEqual({ write: 'deny', bash: { '**': 'ask', 'curl *': 'deny' }, read: { 'docs/**': 'deny', 'src/**': 'ask' }, delete: 'deny' });
    // As the workspace layer, the joined rules ask for every bash command and deny curl.
    const config = permissionConfig({ user: {}, workspace: { 'peon.permission.rules': rules } });
    const bash = (command: string) => judge({ tool: 'bash', assessment: { risk: 'process', writes: false, paths: [at('.')], summary: { kind: 'command', command, cwd: '.' } }, config });
    expect((await bash('ls')).decision).toBe('ask');
    expect((await bash('curl http://x')).decision).toBe('deny');
  });
});
