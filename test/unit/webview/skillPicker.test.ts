// The composer's `/` picker as pure functions (webview/skillPicker.ts): where a `/name`
// being typed is, which skills it offers, and the text once one is picked.
import { expect, test } from 'vitest';
import type { SkillInfo } from '../../../src/shared/messages';
import { matchSkills, pickSkill, slashToken } from '../../../webview/skillPicker';

const skill = (name: string, description = ''): SkillInfo => ({ name, description, source: `.peon/skills/${name}/SKILL.md`, fork: false });
const SKILLS = [skill('review', 'Reviews the diff'), skill('release-notes', 'Writes release notes'), skill('pr', 'Opens a pull request for review'), skill('deploy')];

test('a / at the start of the message or after whitespace opens it; one inside a word or a path does not', () => {
  expect(slashToken('/', 1)).toEqual({ start: 0, end: 1, query: '' });
  expect(slashToken('/rev', 4)).toEqual({ start: 0, end: 4, query: 'rev' });
  expect(slashToken('please /re now', 10)).toEqual({ start: 7, end: 10, query: 're' });
  expect(slashToken('line one\n/de', 12)).toMatchObject({ start: 9, query: 'de' });
  expect(slashToken('src/app.ts', 4)).toBeUndefined();
  expect(slashToken('a/b', 3)).toBeUndefined();
  expect(slashToken('/review now', 11)).toBeUndefined(); // the caret has left the name
  expect(slashToken('no slash', 8)).toBeUndefined();
  expect(slashToken('', 0)).toBeUndefined();
});

test('the caret inside a name: the token runs to the end of the name, the query to the caret', () => {
  expect(slashToken('/review it', 3)).toEqual({ start: 0, end: 7, query: 're' });
  expect(slashToken('/Re', 3)).toMatchObject({ query: 're' });
});

test('names that start with the query come first, then names and descriptions that hold it', () => {
  expect(matchSkills(SKILLS, '').map((s) => s.name)).toEqual(['deploy', 'pr', 'release-notes', 'review']);
  expect(matchSkills(SKILLS, 're').map((s) => s.name)).toEqual(['release-notes', 'review', 'pr']);
  expect(matchSkills(SKILLS, 'notes').map((s) => s.name)).toEqual(['release-notes']);
  expect(matchSkills(SKILLS, 'review').map((s) => s.name)).toEqual(['review', 'pr']);
  expect(matchSkills(SKILLS, 'zzz')).toEqual([]);
  expect(matchSkills(SKILLS, '', 2)).toHaveLength(2);
});

test('picking replaces the whole name with /name and one space, the caret after it', () => {
  expect(pickSkill('/re', slashToken('/re', 3)!, 'review')).toEqual({ text: '/review ', caret: 8 });
  expect(pickSkill('fix it /de', slashToken('fix it /de', 10)!, 'deploy')).toEqual({ text: 'fix it /deploy ', caret: 15 });
  // Mid-name, with text after it: the rest of the old name goes, the text after it stays, no double space.
  expect(pickSkill('/rex then', slashToken('/rex then', 2)!, 'review')).toEqual({ text: '/review then', caret: 8 });
  expect(pickSkill('/rev\nmore', slashToken('/rev\nmore', 4)!, 'review')).toEqual({ text: '/review \nmore', caret: 8 });
});
