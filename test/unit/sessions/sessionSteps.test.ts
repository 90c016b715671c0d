// A chat's checkpoints saved with its session (DESIGN.md §10): each step's record is a
// line of the session file; read back after a reload, a new Checkpoints over the same
// storage takes them and reverts the step exactly.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoints';
import { SessionStore } from '../../../src/core/sessions/sessionStore';
import { tempDir, writeFiles } from '../tools/toolTestContext';

test("a step saved with the session is reverted after a reload, by a new chat's checkpoints", async () => {
  const ws = tempDir('peon-steps-ws-');
  writeFiles(ws, { 'a.txt': 'before\n', 'gone.txt': 'kept\n' });
  const dir = tempDir('peon-steps-store-');
  const first = new Checkpoints({ folders: [ws], dir, waitForFirstScan: true });
  const start = await first.beforeFolders('bash');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'after\n');
  fs.rmSync(path.join(ws, 'gone.txt'));
  const step = await first.after(start);
  const sessions = new SessionStore(tempDir('peon-steps-sessions-'));
  const session = sessions.create('change a.txt').id;
  sessions.append(session, { type: 'step', step });
  first.dispose();

  const loaded = sessions.load(session);
  expect(loaded.steps).toEqual([step]);
  const second = new Checkpoints({ folders: [ws], dir });
  expect(second.step(step.id)).toBeUndefined();
  second.restore(loaded.steps);
  const result = await second.revert(step.id);
  expect(result.restored.map((c) => c.path)).toEqual(['a.txt', 'gone.txt']);
  expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('before\n');
  expect(fs.readFileSync(path.join(ws, 'gone.txt'), 'utf8')).toBe('kept\n');
});
