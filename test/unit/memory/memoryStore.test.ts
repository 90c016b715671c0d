import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { MemoryStore, memoryStore } from '../../../src/core/memory/memoryStore';
import { makeWorkspace } from '../tools/toolTestContext';
import { corpus, entryFile, read } from './memoryCorpus';

test('Remember this writes an observation: title from the first line, the files it mentions with their hashes, and index.md kept current', async () => {
  const root = makeWorkspace({ 'src/auth/login.ts': 'export const login = 1;\n', 'README.md': '# r\n' });
  const store = memoryStore(root);
  const entry = await store.remember('## Login needs `src/auth/login.ts` and README.md\n\nAlso see src/missing.ts and /etc/passwd and ../outside.txt.');
  expect(entry).toMatchObject({ id: expect.stringMatching(/^obs-[0-9a-f]{6}$/), kind: 'observation', title: 'Login needs src/auth/login.ts and README.md', file: `.peon/memory/observations/${entry.id}.md` });
  expect(entry.files.map((f) => f.path)).toEqual(['src/auth/login.ts', 'README.md']); // the missing and the outside are not cited
  const text = read(entryFile(root, entry.id));
  expect(text).toMatch(new RegExp(`^---\\nid: ${entry.id}\\nkind: observation\\ncreated: \\d{4}-\\d\\d-\\d\\dT[^\\n]+\\nfiles:\\n  - path: src/auth/login.ts\\n    sha256: [0-9a-f]{64}\\n`));
  expect(text).toContain('# Login needs src/auth/login.ts and README.md\n\n## Login needs');
  expect(read(path.join(root, '.peon/memory/index.md'))).toContain(`- ${entry.id} (observation): Login needs src/auth/login.ts and README.md`);
});

test('an entry whose cited file changed since is marked stale, naming the file; put back, it is fresh again', async () => {
  const { root, store, ids } = await corpus();
  const flaky = store.get(ids.flaky)!;
  expect(store.staleness(flaky)).toEqual({ stale: false, changed: [] });
  const spec = path.join(root, 'tests/login.spec.ts');
  fs.writeFileSync(spec, 'test("login", () => { expect(1).toBe(1); });\n');
  expect(store.staleness(flaky)).toEqual({ stale: true, changed: ['tests/login.spec.ts'] });
  fs.writeFileSync(spec, 'test("login", () => {});\n');
  expect(store.staleness(flaky).stale).toBe(false);
  fs.rmSync(spec);
  expect(store.staleness(flaky)).toEqual({ stale: true, changed: ['tests/login.spec.ts'] });
});

test('the index follows the files: an entry edited, added or removed by someone else is found as it is now', async () => {
  const { root, store, ids } = await corpus();
  expect(store.rank('kumquat')).toEqual([]);
  const file = entryFile(root, ids.styling);
  fs.writeFileSync(file, read(file).replace('colours and fonts', 'colours, fonts and the kumquat logo'));
  expect(store.rank('kumquat').map((r) => r.key)).toEqual([ids.styling]);
  fs.writeFileSync(path.join(root, '.peon/memory/deploy notes.md'), '# Deploy notes\n\nThe kumquat server deploys on Fridays.\n');
  expect(store.rank('kumquat').map((r) => r.key).sort()).toEqual([ids.styling, 'cur-deploy-notes'].sort());
  fs.rmSync(file);
  expect(store.rank('kumquat').map((r) => r.key)).toEqual(['cur-deploy-notes']);
  // Files that are not entries are not indexed: index.md itself, a stray name in observations/.
  fs.writeFileSync(path.join(root, '.peon/memory/observations/notes.md'), '# kumquat\n');
  expect(store.list().map((e) => e.id)).not.toContain('cur-index');
  expect(store.rank('kumquat').map((r) => r.key)).toEqual(['cur-deploy-notes']);
});

test('delete removes an observation and its index line, returning its text; a curated file is the person\'s', async () => {
  const { root, store, ids } = await corpus();
  const text = read(entryFile(root, ids.flaky));
  expect(await store.delete(ids.flaky)).toBe(text);
  expect(fs.existsSync(entryFile(root, ids.flaky))).toBe(false);
  expect(read(path.join(root, '.peon/memory/index.md'))).not.toContain(ids.flaky);
  await expect(store.delete('cur-agents-md')).rejects.toThrow(/curated file; edit or delete it yourself/);
  await expect(store.delete('obs-000000')).rejects.toThrow(/no memory entry obs-000000/);
});

test('the index is saved (ignored by git) and a new session starts from it, re-reading only what changed; a broken cache is ignored', async () => {
  const { root, ids } = await corpus();
  const cacheDir = path.join(root, '.peon/memory/.cache');
  expect(read(path.join(cacheDir, '.gitignore'))).toBe('*\n');
  const saved = JSON.parse(read(path.join(cacheDir, 'index.json')));
  expect(saved.entries.map((e: { id: string }) => e.id).sort()).toEqual(Object.values(ids).sort());
  // Changed behind the cache's back: the new store reads that file again.
  const file = entryFile(root, ids.styling);
  fs.writeFileSync(file, `${read(file)}\nThe kumquat palette.\n`);
  const fresh = new MemoryStore(root);
  expect(fresh.rank('kumquat').map((r) => r.key)).toEqual([ids.styling]);
  expect(fresh.rank('login test')[0]!.key).toBe(ids.flaky);
  // A cache that lies about an entry it has no file for, or is not JSON: ignored, nothing lost.
  fs.writeFileSync(path.join(cacheDir, 'index.json'), '{"version":2,"entries":[{"id":"../../x"}]}');
  expect(new MemoryStore(root).rank('kumquat').map((r) => r.key)).toEqual([ids.styling]);
  fs.writeFileSync(path.join(cacheDir, 'index.json'), 'not json');
  expect(new MemoryStore(root).list().length).toBe(5);
});

test('searching a workspace that has only AGENTS.md writes nothing into it', () => {
  const root = makeWorkspace({ 'AGENTS.md': '# Rules\n\nTest first.\n' });
  expect(new MemoryStore(root).rank('test').map((r) => r.key)).toEqual(['cur-agents-md']);
  expect(fs.existsSync(path.join(root, '.peon'))).toBe(false);
});

test('a saved index cannot point an entry at another file: the entry is read from its own', async () => {
  const { root, ids } = await corpus();
  const cacheFile = path.join(root, '.peon/memory/.cache/index.json');
  const saved = JSON.parse(read(cacheFile));
  for (const e of saved.entries) if (e.id === ids.flaky) e.file = '../../../../etc/passwd';
  fs.writeFileSync(cacheFile, JSON.stringify(saved));
  const store = new MemoryStore(root);
  const entry = store.get(ids.flaky)!;
  expect(entry.file).toBe(`.peon/memory/observations/${ids.flaky}.md`);
  expect(store.text(entry)).toContain('The login test fails');
});

test('an entry file that links out of the workspace is not memory (mem-read cannot read ~/.ssh); a link inside it is', async () => {
  const root = makeWorkspace({ 'CLAUDE.md': '# Shared rules\n\nUse tabs.\n', '.peon/memory/observations/.keep': '' });
  const outside = makeWorkspace({ 'id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\n', 'notes/obs-abcdef.md': '# stolen\n' });
  fs.symlinkSync(path.join(outside, 'id_rsa'), path.join(root, '.peon/memory/observations/obs-123456.md'));
  fs.symlinkSync(path.join(outside, 'notes'), path.join(root, '.peon/memory/summaries'));
  fs.symlinkSync(path.join(root, 'CLAUDE.md'), path.join(root, 'AGENTS.md'));
  const store = new MemoryStore(root);
  expect(store.list().map((e) => e.id)).toEqual(['cur-agents-md']);
  expect(store.rank('OPENSSH stolen')).toEqual([]);
  expect(store.text(store.get('cur-agents-md')!)).toContain('Use tabs.');
});
