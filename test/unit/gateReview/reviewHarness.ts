// What the gate-review tests share: git run on a test repository (its own HOME, no system
// config), and the check that a call asked, was denied by --approve none, and showed none
// of what it must not.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { ToolOutcome } from '../cliHarness';
import { tempDir, writeFiles } from '../tools/toolTestContext';

export interface ReviewBox {
  readonly t: string;
  readonly home: string;
  readonly ws: string;
  /** A --config file with `bash: allow`. */
  readonly allow: string;
}

/** A temporary HOME and workspace with the files given, and a `bash: allow` config beside them. */
export function reviewBox(prefix: string, homeFiles: Record<string, string>, wsFiles: Record<string, string>): ReviewBox {
  const t = tempDir(prefix);
  const home = path.join(t, 'home');
  const ws = path.join(t, 'ws');
  writeFiles(home, homeFiles);
  writeFiles(ws, wsFiles);
  const allow = path.join(t, 'allow.json');
  fs.writeFileSync(allow, JSON.stringify({ 'peon.permission.rules': { bash: 'allow' } }));
  return { t, home, ws, allow };
}

/**
 * The arguments of a "the harness is live" control: approved, the command does its harm,
 * so the gate's answer is what stopped it. The sandbox is off there: it is a layer of its
 * own (test/unit/sandbox), and with it on the harm would not show.
 */
export function liveControl(dir: string): string[] {
  const file = path.join(dir, 'live-control.json');
  fs.writeFileSync(file, JSON.stringify({ 'peon.sandbox.mode': 'off' }));
  return ['--config', file, '--approve', 'all'];
}

/** Makes the workspace a repository with everything in it (ignored files too) committed. */
export function commitAll(b: ReviewBox, message: string): void {
  git(b.ws, b.home, 'init', '-q', '.');
  git(b.ws, b.home, 'add', '-f', '.');
  git(b.ws, b.home, 'commit', '-qm', message);
}

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
