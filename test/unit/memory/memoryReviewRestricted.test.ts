// Restricted Mode: memoryAccess keeps a restricted workspace's memory read-only (persist: trusted),
// but Conversation.memoryOn ignores trust, so a closed chat's summary is written into the untrusted repo.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { conversationIn } from '../conversation/conversationTestKit';
import { say, scriptedModel } from '../conversation/subagentTestKit';
import { makeWorkspace } from '../tools/toolTestContext';

const model = scriptedModel();

test('closing a chat in an untrusted workspace writes no summary (and no index.md, no cache) into it', async () => {
  const root = makeWorkspace({ 'README.md': '# x\n' });
  const conversation = conversationIn(root, { trusted: false });
  model.server.script(say('The staging password is in ~/.pgpass; I used it to connect.'));
  await conversation.turn('connect to staging and check the users table', model.client(), () => {}, { settle: true });
  const id = await conversation.closeToMemory();
  expect(id).toBeUndefined();
  expect(fs.existsSync(path.join(root, '.peon/memory'))).toBe(false);
});
