import { describe, expect, test } from 'vitest';
import { decide, defaultMode } from '../../../src/core/permissions/gate';
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

describe('semi-ask, the file tools default', () => {
  test('an ordinary read runs', () => expect(decide(call(false, [at('src/a.ts')]), 'semi-ask', 's')).toMatchObject({ decision: 'allow', reasons: [] }));
  test('a write asks', () => expect(decide(call(true, [at('src/a.ts')]), 'semi-ask', 's')).toMatchObject({ decision: 'ask', reasons: ['it changes files'] }));
  test.each([
    [{ inside: false }, 'is outside the workspace'],
    [{ secretReasons: ['.env looks like a secret'] }, '.env looks like a secret'],
    [{ ignored: true }, 'is ignored'],
    [{ protectedReason: 'VS Code workspace configuration' }, 'is protected'],
  ])('a read of a path with %j asks', (facts, reason) => {
    const d = decide(call(false, [at('p', facts)]), 'semi-ask', 's');
    expect(d.decision).toBe('ask');
    expect(d.reasons.join(' ')).toContain(reason);
  });
});

describe('other modes', () => {
  test('allow runs writes, but a protected path still asks', () => {
    expect(decide(call(true, [at('src/a.ts')]), 'allow', 'rule')).toMatchObject({ decision: 'allow' });
    expect(decide(call(true, [at('.vscode/settings.json', { protectedReason: 'VS Code workspace configuration' })]), 'allow', 'rule')).toMatchObject({
      decision: 'ask',
      reasons: ['.vscode/settings.json is protected: VS Code workspace configuration'],
    });
  });
  test('ask always asks, deny always denies, naming the rule', () => {
    expect(decide(call(false, [at('a')]), 'ask', 'my rule')).toMatchObject({ decision: 'ask', source: 'my rule' });
    expect(decide(call(true, [at('.git/config', { protectedReason: 'git' })]), 'deny', 'my rule')).toMatchObject({ decision: 'deny', source: 'my rule' });
  });
  test('every built-in file tool defaults to semi-ask; others fall back to ask', () => {
    for (const tool of ['read', 'write', 'edit', 'delete', 'list', 'glob', 'grep']) expect(defaultMode(tool)).toEqual({ mode: 'semi-ask', source: `default for ${tool}: semi-ask` });
    expect(defaultMode('mcp__x')).toEqual({ mode: 'ask', source: 'peon.permission.default: ask' });
  });
});
