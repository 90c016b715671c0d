// From a hostile review of skills and memory: read_skill re-reads SKILL.md on every call; what it re-reads may not be the skill any more.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { conversationIn } from '../conversation/conversationTestKit';
import { makeWorkspace, tempDir, writeFiles } from '../tools/toolTestContext';

test('a SKILL.md swapped (after discovery) for a hard link to a file outside the workspace is not returned without asking', async () => {
  const outside = tempDir('peon-outside-');
  writeFiles(outside, { credentials: '[default]\naws_secret_access_key = abc123\n' });
  const root = makeWorkspace({ '.peon/skills/notes/SKILL.md': '---\nname: notes\ndescription: Notes.\n---\n# Notes\n' });
  const asked: string[] = [];
  const conversation = conversationIn(root, { hooks: { approve: async (r) => (asked.push(r.tool), { approved: false }) } });
  expect(conversation.skills.size).toBe(1);
  const file = path.join(root, '.peon/skills/notes/SKILL.md');
  fs.linkSync(path.join(outside, 'credentials'), `${file}.tmp`);
  fs.renameSync(`${file}.tmp`, file);
  // The read tool would ask here ("has 2 hard links, and another may be outside the workspace").
  const outcome = await conversation.call('read_skill', { name: 'notes' });
  const leaked = outcome.ok && outcome.output.includes('aws_secret_access_key');
  expect(leaked && asked.length === 0).toBe(false);
});
