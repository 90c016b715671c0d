import { expect, test } from 'vitest';
import { skillListing } from '../../../src/core/skills/skillList';
import type { Skill } from '../../../src/core/skills/skillCatalog';

const skill = (name: string, description: string): Skill => ({ name, description, arguments: [], root: '/r', file: `/r/${name}/SKILL.md`, canonical: `/r/${name}/SKILL.md`, source: `.peon/skills/${name}/SKILL.md`, scope: 'workspace' });

const filler = (topic: string) => `Helps with ${topic}. ${'General guidance about working carefully and checking results. '.repeat(4)}`;
const skills = [
  skill('release-notes', filler('writing release notes and changelogs')),
  skill('db-migrations', filler('database schema migrations, postgres, rollbacks')),
  skill('incident-report', filler('incident reports and postmortems')),
  skill('theme-factory', filler('styling slides with color themes and fonts')),
  skill('api-docs', filler('OpenAPI reference documentation')),
];

test('within the budget every skill is listed with its description', () => {
  const listing = skillListing(skills, 'anything', 100_000);
  for (const s of skills) expect(listing).toContain(`- ${s.name}: ${s.description.trim()}`);
  expect(listing).not.toContain('Also available');
  expect(skillListing([], 'x', 1000)).toBe('');
});

test('over the budget, the skills relevant to the message keep their descriptions and the rest are named — none dropped unseen', () => {
  const listing = skillListing(skills, 'write a postgres migration with a rollback', 600);
  expect(listing).toContain('- db-migrations: Helps with database schema migrations');
  expect(listing).not.toContain('- theme-factory:');
  expect(listing).toMatch(/Also available \(\d+, descriptions left out for space; read_skill shows one\): .*theme-factory/);
  for (const s of skills) expect(listing).toContain(s.name);
  expect(listing.length).toBeLessThanOrEqual(600 + 700); // the fixed header is outside the budget

  // Another message, other descriptions kept.
  const other = skillListing(skills, 'color themes for my slides', 600);
  expect(other).toContain('- theme-factory: Helps with styling slides');
  expect(other).not.toContain('- db-migrations:');
});

test('hidden characters in a description reach the prompt made visible', () => {
  expect(skillListing([skill('x', 'Nice\u200B skill')], 'x', 1000)).toContain('- x: Nice⟨U+200B⟩ skill');
});
