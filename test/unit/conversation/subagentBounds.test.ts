import { expect, test } from 'vitest';
import { boundsOf } from '../../../src/core/conversation/subagentBounds';
import { resolveSettings } from '../../../src/core/settings';

test("subagents' bounds: the declared defaults when unset, the person's values when set", () => {
  expect(boundsOf({})).toEqual({ maxDepth: 2, maxConcurrent: 3, maxTurns: 40, maxTokens: 1_000_000, maxSeconds: 1200, sessionTokens: 5_000_000 });
  const settings = resolveSettings({ user: { 'peon.subagents.maxConcurrent': 1, 'peon.subagents.maxSeconds': 5 }, workspace: { 'peon.subagents.maxDepth': 5 } }).values;
  // A workspace cannot raise a bound (user scope only).
  expect(boundsOf(settings)).toMatchObject({ maxConcurrent: 1, maxSeconds: 5, maxDepth: 2 });
});
