// What the gate-review tests share: git run on a test repository (its own HOME, no system
// config), and the check that a call asked, was denied by --approve none, and showed none
// of what it must not.
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import type { ToolOutcome } from '../cliHarness';

export const git = (cwd: string, home: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
  });

/** The call asked (and --approve none denied it); `hidden` does not appear in what came back; `why` is among its reasons. */
export function expectAskedHiding(outcome: ToolOutcome, hidden?: RegExp, why?: string): void {
  expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: false, permission: { decision: 'ask', answer: 'denied' } });
  if (hidden) expect(JSON.stringify(outcome)).not.toMatch(hidden);
  if (why) expect(outcome.permission!.reasons.join('\n')).toContain(why);
}
