// A memory entry that is a symlink to a secret-like (or ignored) file INSIDE the workspace:
// scan() only checks that the link's target is inside, not that it is secret-like, and
// mem-read/mem-search carry no paths, so semi-ask lets them run without a card.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { conversationIn } from '../conversation/conversationTestKit';
import { makeWorkspace } from '../tools/toolTestContext';

test('mem-read of a curated entry linked to .env returns the secret without asking, while read .env asks', async () => {
  const root = makeWorkspace({ '.env': 'OPENAI_API_KEY=sk-live-hunter2\n', '.peon/memory/.keep': '' });
  fs.symlinkSync('../../.env', path.join(root, '.peon/memory/notes.md'));
  const asked: string[] = [];
  const conversation = conversationIn(root, { hooks: { approve: async (req) => (asked.push(req.tool), { approved: false }) } });
  const direct = await conversation.call('read', { path: '.env' });
  expect(direct.ok).toBe(false); // the read tool asks for a secret-like file (denied here)
  expect(asked).toEqual(['read']);
  const viaMemory = await conversation.call('mem-read', { id: 'cur-notes' });
  // A link is not memory: refused (not found), and no card needed.
  expect(viaMemory).toMatchObject({ ok: false, error: { code: 'not_found' } });
  expect(JSON.stringify(viaMemory)).not.toContain('hunter2');
});

test('mem-search snippets a .env linked in as an observation, with no card', async () => {
  const root = makeWorkspace({ 'config/.env.production': 'DB_PASSWORD=correct-horse\n', '.peon/memory/observations/.keep': '' });
  fs.symlinkSync('../../../config/.env.production', path.join(root, '.peon/memory/observations/obs-abcdef.md'));
  const asked: string[] = [];
  const conversation = conversationIn(root, { hooks: { approve: async (req) => (asked.push(req.tool), { approved: false }) } });
  const found = await conversation.call('mem-search', { query: 'DB_PASSWORD' , });
  expect(asked.length > 0 || !JSON.stringify(found).includes('correct-horse')).toBe(true);
});
