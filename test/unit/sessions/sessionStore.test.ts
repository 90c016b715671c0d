import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { SessionStore } from '../../../src/core/sessions/sessionStore';
import { tempDir } from '../tools/toolTestContext';

test('a session is written line by line and read back whole', () => {
  const store = new SessionStore(tempDir());
  const meta = store.create('  Fix the\nflaky test  ');
  expect(meta.title).toBe('Fix the flaky test');
  store.append(meta.id, { type: 'history', item: { role: 'user', text: 'Fix the flaky test' } });
  store.append(meta.id, { type: 'view', message: { type: 'append', entry: { kind: 'user', id: 'e1', text: 'Fix the flaky test' } } });
  store.append(meta.id, { type: 'history', item: { role: 'assistant', text: 'Done.', toolCalls: [] } });
  const loaded = store.load(meta.id);
  expect(loaded.history).toEqual([{ role: 'user', text: 'Fix the flaky test' }, { role: 'assistant', text: 'Done.', toolCalls: [] }]);
  expect(loaded.view).toHaveLength(1);
  expect(store.list().map((s) => s.id)).toEqual([meta.id]);
});

test('a line torn by a crash is skipped; everything before it survives', () => {
  const dir = tempDir();
  const store = new SessionStore(dir);
  const meta = store.create('crash');
  store.append(meta.id, { type: 'history', item: { role: 'user', text: 'kept' } });
  fs.appendFileSync(path.join(dir, `${meta.id}.jsonl`), '{"type":"history","item":{"role":"assis');
  expect(store.load(meta.id).history).toEqual([{ role: 'user', text: 'kept' }]);
});

test('listed newest first; deleted for good; ids that are not ours are refused', async () => {
  const store = new SessionStore(tempDir());
  const a = store.create('first');
  await new Promise((r) => setTimeout(r, 20));
  const b = store.create('second');
  store.append(b.id, { type: 'history', item: { role: 'user', text: 'x' } });
  expect(store.list().map((s) => s.title)).toEqual(['second', 'first']);
  store.delete(a.id);
  expect(store.list().map((s) => s.title)).toEqual(['second']);
  expect(() => store.load('../../etc/passwd')).toThrow(/Not a session id/);
});

test('no folder yet: an empty list', () => {
  expect(new SessionStore(path.join(tempDir(), 'missing')).list()).toEqual([]);
});
