// The panel's skills (issue 14) over a real conversation and real folders: what the
// composer is offered, the skipped skills with why, and `/name` in a message turned by
// the host's transcript into the chip under it (source, hash, hidden characters, the
// subagent a fork skill started, why one failed).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import type { LoopEvent } from '../../../src/core/agent/loop';
import { skillsMessage } from '../../../src/extension/panelSkills';
import { skillEntry, Transcript } from '../../../src/extension/transcript';
import { parseHostMessage, type HostMessage } from '../../../src/shared/messages';
import { conversationIn } from '../conversation/conversationTestKit';
import { say, scriptedModel } from '../conversation/subagentTestKit';
import { makeWorkspace } from '../tools/toolTestContext';

const model = scriptedModel();
const skillMd = (name: string, front = '', body = `# ${name}\n\nDo the ${name} thing.\n`) => `---\nname: ${name}\ndescription: The ${name} skill.\n${front}---\n${body}`;

test('the composer is offered each skill with its description, source and fork flag; skipped ones come with why', () => {
  const root = makeWorkspace({
    '.peon/skills/review/SKILL.md': skillMd('review'),
    '.peon/skills/survey/SKILL.md': skillMd('survey', 'context: fork\nagent: explorer\n'),
    '.peon/skills/broken/SKILL.md': '---\nname: Broken Name\n---\nno\n',
  });
  const message = skillsMessage(conversationIn(root));
  expect(parseHostMessage(message).ok).toBe(true);
  expect(message.skills).toEqual([
    { name: 'review', description: 'The review skill.', source: '.peon/skills/review/SKILL.md', fork: false },
    { name: 'survey', description: 'The survey skill.', source: '.peon/skills/survey/SKILL.md', fork: true },
  ]);
  expect(message.problems).toEqual([expect.stringMatching(/^Skill \.peon\/skills\/broken\/SKILL\.md skipped: .+\.$/)]);
  expect(skillsMessage(undefined)).toEqual({ type: 'skills', skills: [], problems: [] });
});

test('an untrusted workspace offers none of its skills, and says why', () => {
  const root = makeWorkspace({ '.peon/skills/review/SKILL.md': skillMd('review') });
  const message = skillsMessage(conversationIn(root, { trusted: false }));
  expect(message.skills).toEqual([]);
  expect(message.problems).toEqual(['Skill .peon/skills skipped: not loaded: the workspace is not trusted (Restricted Mode).']);
});

test('/name in a message: the chip under it names the skill, its source and hash, what it hides; a fork names its subagent', async () => {
  const hiddenBody = '# review\n\nLook closely.\u200B\u{E0069}\u{E0067}\n';
  const root = makeWorkspace({
    '.peon/skills/review/SKILL.md': skillMd('review', '', hiddenBody),
    '.peon/skills/survey/SKILL.md': skillMd('survey', 'context: fork\nagent: explorer\n'),
  });
  const posted: HostMessage[] = [];
  const transcript = new Transcript((m) => posted.push(m));
  const conversation = conversationIn(root);
  model.server.script(say('Reviewed.'));
  model.server.route('skill-survey', say('Surveyed.'));
  transcript.append({ kind: 'user', text: 'please /review\n/survey the files' });
  await conversation.turn('please /review\n/survey the files', model.client(), (e) => transcript.apply(e));
  const sha256 = createHash('sha256').update(fs.readFileSync(path.join(root, '.peon/skills/review/SKILL.md'))).digest('hex');
  const chips = transcript.entries.filter((e) => e.kind === 'skill');
  expect(transcript.entries.map((e) => e.kind)).toEqual(['user', 'skill', 'skill', 'assistant']);
  expect(chips[0]).toEqual({ kind: 'skill', id: 'e2', name: 'review', source: '.peon/skills/review/SKILL.md', sha256, hidden: expect.arrayContaining([expect.stringMatching(/zero-width/), expect.stringMatching(/tag character/)]) });
  expect(chips[1]).toMatchObject({ kind: 'skill', name: 'survey', forked: 'skill-survey', hidden: [] });
  // Every chip the host sends is one the webview accepts.
  for (const m of posted) expect(parseHostMessage(m).ok).toBe(true);
  await conversation.subagents.idle();
});

test("a skill that failed says why; what does not fit the protocol's bounds is cut, never dropped", () => {
  const failed: LoopEvent & { type: 'skill' } = { type: 'skill', name: 'gone', source: '.peon/skills/gone/SKILL.md', hidden: [], error: 'The skill "gone" is gone: .peon/skills/gone/SKILL.md no longer exists.' };
  expect(skillEntry('e9', failed)).toEqual({ kind: 'skill', id: 'e9', name: 'gone', source: '.peon/skills/gone/SKILL.md', hidden: [], error: failed.error });
  const huge = skillEntry('e10', { type: 'skill', name: 'x', source: 's'.repeat(5000), hidden: Array.from({ length: 30 }, (_, i) => `${i} tag characters`), error: 'e'.repeat(3000), forked: 'f'.repeat(50) });
  expect(parseHostMessage({ type: 'append', entry: huge }).ok).toBe(true);
  expect(huge.hidden).toHaveLength(20);
  expect(huge.hidden.at(-1)).toBe('… and 11 more');
});
