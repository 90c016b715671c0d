// `/skill-name`: what the composer's picker offers and inserts vs what the host starts.
import { expect, test } from 'vitest';
import { slashSkills } from '../../../src/core/skills/skillText';
import { pickSkill, slashToken } from '../../../webview/skillPicker';

const known = (n: string) => n === 'review' || n === 'deploy';

test.each([
  ['after a no-break space', 'please\u00a0/rev'],
  ['after a carriage return', 'line one\r/rev'],
  ['after an ideographic space', 'まず\u3000/rev'],
])('a skill the picker offers and inserts %s is started by the host', (_, text) => {
  const token = slashToken(text, text.length);
  expect(token).toBeDefined(); // the picker offers it…
  const picked = pickSkill(text, token!, 'review');
  expect(slashSkills(picked.text, known).map((s) => s.name)).toEqual(['review']); // …but the host does not start it: no chip, no skill, nothing said
});

test('a /skill in an indented code block (a pasted log, CommonMark code) does not start the skill', () => {
  const message = 'The CI output was:\n\n    $ make\n    /deploy done in 3s\n    ok\n\nwhy is it slow?';
  expect(slashSkills(message, known)).toEqual([]);
});

test('a fence "closed" by a line with an info string (not a closing fence in CommonMark) keeps the rest as code', () => {
  const message = 'Log:\n```\nstart\n```text\n/deploy now\n```\n';
  expect(slashSkills(message, known)).toEqual([]);
});
