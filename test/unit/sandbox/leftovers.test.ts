// What a Peon killed mid-command left of its sandbox, cleared by the next one
// (src/core/sandbox/leftovers.ts) — only what this user made: the temp folder is shared.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { clearLeftovers } from '../../../src/core/sandbox/leftovers';
import { tempDir } from '../tools/toolTestContext';

/** A pid no process has now: one that ran and ended. */
const deadPid = (): number => spawnSync('true').pid!;

function leftBehind(tmp: string, pid: number, covers: { path: string; dir: boolean }[]): string {
  const dir = path.join(tmp, `peon-sandbox-tmp-${pid}-abc123`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'note'), 'a command wrote this in its /tmp');
  fs.writeFileSync(`${dir}.covers`, JSON.stringify(covers), { mode: 0o600 });
  return dir;
}

test("a dead Peon's private /tmp goes, and the empty covers its journal lists are removed; anything else is left", () => {
  const tmp = tempDir('peon-leftovers-');
  const ws = tempDir('peon-leftovers-ws-');
  fs.mkdirSync(path.join(ws, '.vscode'));
  fs.writeFileSync(path.join(ws, '.mcp.json'), '');
  fs.mkdirSync(path.join(ws, '.peon'));
  fs.writeFileSync(path.join(ws, '.peon', 'kept.json'), '{}'); // the person's since: not an empty cover
  const dir = leftBehind(tmp, deadPid(), [{ path: path.join(ws, '.vscode'), dir: true }, { path: path.join(ws, '.mcp.json'), dir: false }, { path: path.join(ws, '.peon'), dir: true }]);
  clearLeftovers(tmp);
  expect(fs.existsSync(dir)).toBe(false);
  expect(fs.existsSync(`${dir}.covers`)).toBe(false);
  expect(fs.readdirSync(ws).sort()).toEqual(['.peon']);
});

test("a living Peon's folders, and folders of this name another user made, are not touched", () => {
  const tmp = tempDir('peon-leftovers-');
  const target = tempDir('peon-leftovers-target-');
  fs.writeFileSync(path.join(target, 'empty.lock'), '');
  const living = leftBehind(tmp, process.ppid, [{ path: path.join(target, 'empty.lock'), dir: false }]);
  clearLeftovers(tmp);
  expect(fs.existsSync(living)).toBe(true);
  expect(fs.existsSync(path.join(target, 'empty.lock'))).toBe(true);
  if (process.getuid?.() !== 0) return; // only root can make files another user's
  const planted = leftBehind(tmp, deadPid(), [{ path: path.join(target, 'empty.lock'), dir: false }]);
  for (const p of [planted, `${planted}.covers`, path.join(planted, 'note')]) fs.chownSync(p, 65534, 65534);
  clearLeftovers(tmp);
  expect(fs.existsSync(planted)).toBe(true);
  expect(fs.existsSync(path.join(target, 'empty.lock'))).toBe(true);
  // Our own journal beside another user's folder is not enough either.
  fs.chownSync(`${planted}.covers`, 0, 0);
  clearLeftovers(tmp);
  expect(fs.existsSync(path.join(target, 'empty.lock'))).toBe(true);
});

test("a link planted where the empty covers' folder would be is never followed: what it names keeps its mode", () => {
  const tmp = tempDir('peon-leftovers-');
  const victim = tempDir('peon-leftovers-victim-');
  fs.chmodSync(victim, 0o755);
  const dir = path.join(tmp, `peon-sandbox-empty-${deadPid()}-abc123`);
  fs.mkdirSync(dir);
  fs.symlinkSync(victim, path.join(dir, 'dir'));
  clearLeftovers(tmp);
  expect(fs.existsSync(dir)).toBe(false);
  expect(fs.statSync(victim).mode & 0o777).toBe(0o755);
});

test('a cover whose folder became a link is not removed through it', () => {
  const tmp = tempDir('peon-leftovers-');
  const ws = tempDir('peon-leftovers-ws-');
  const victim = tempDir('peon-leftovers-victim-');
  fs.mkdirSync(path.join(victim, '.githooks'));
  fs.symlinkSync(victim, path.join(ws, 'a'));
  leftBehind(tmp, deadPid(), [{ path: path.join(ws, 'a', '.githooks'), dir: true }]);
  clearLeftovers(tmp);
  expect(fs.existsSync(path.join(victim, '.githooks'))).toBe(true);
});
