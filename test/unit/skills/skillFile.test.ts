import { expect, test } from 'vitest';
import { parseSkill } from '../../../src/core/skills/skillFile';

const skill = (front: string, body = '# Body\n') => `---\n${front}\n---\n${body}`;

test('a valid SKILL.md: name, description, and Peon\'s context, agent and arguments; other keys are accepted', () => {
  const parsed = parseSkill(skill('name: release-checks\ndescription: Checks before a release.\ncontext: fork\nagent: Explore\narguments: [version, branch]\nlicense: MIT\nallowed-tools: Bash'), 'release-checks');
  expect(parsed).toEqual({ ok: true, meta: { name: 'release-checks', description: 'Checks before a release.', context: 'fork', agent: 'explorer', arguments: ['version', 'branch'] }, body: '# Body\n' });
  expect(parseSkill(skill('name: a\ndescription: d\narguments: issue, branch'), 'a')).toMatchObject({ ok: true, meta: { arguments: ['issue', 'branch'] } });
  expect(parseSkill(skill('name: a\ndescription: d\narguments:\n  issue: the issue number'), 'a')).toMatchObject({ ok: true, meta: { arguments: ['issue'] } });
  // CRLF line endings and a BOM, as a Windows editor saves them.
  expect(parseSkill('\uFEFF---\r\nname: a\r\ndescription: d\r\n---\r\nbody', 'a')).toMatchObject({ ok: true, meta: { name: 'a' }, body: 'body' });
});

test.each([
  ['name: Release-Checks\ndescription: d', 'Release-Checks', /lowercase letters/],
  ['name: release checks\ndescription: d', 'release checks', /lowercase letters/],
  ['name: release--checks\ndescription: d', 'release--checks', /single hyphens/],
  ['name: -release\ndescription: d', '-release', /none at either end/],
  ['name: release-\ndescription: d', 'release-', /none at either end/],
  [`name: ${'a'.repeat(65)}\ndescription: d`, 'a'.repeat(65), /1–64/],
  ['name: release\ndescription: d', 'other', /does not match its directory "other"/],
  ['description: d', 'x', /no `name`/],
  ['name: x', 'x', /no `description`/],
  [`name: x\ndescription: ${'d'.repeat(1025)}`, 'x', /1025 characters, over 1024/],
  ['name: x\ndescription: d\ncontext: background', 'x', /neither "fork" nor "inline"/],
  ['name: x\ndescription: d\nagent: hacker', 'x', /agent "hacker" is not one of/],
  ['name: x\ndescription: d\narguments: ["a b"]', 'x', /argument "a b" is not a name/],
  ['name: x\ndescription: [unclosed', 'x', /not valid YAML/],
  ['name: x\nname: y\ndescription: d', 'x', /not valid YAML/],
  ['- a\n- b', 'x', /not a mapping/],
])('%j in %j is skipped with its reason', (front, dir, reason) => {
  const parsed = parseSkill(skill(front), dir);
  expect(parsed.ok).toBe(false);
  expect(parsed.ok ? '' : parsed.reason).toMatch(reason);
});

test('a SKILL.md without front matter is skipped, saying so', () => {
  expect(parseSkill('# Just markdown\n', 'x')).toEqual({ ok: false, reason: 'SKILL.md does not start with YAML front matter between --- lines' });
});

test('YAML aliases cannot blow up (a billion laughs is refused, not expanded)', () => {
  const laughs = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`)].join('\n');
  const parsed = parseSkill(skill(`name: x\ndescription: d\n${laughs}`), 'x');
  expect(parsed.ok).toBe(false);
});
