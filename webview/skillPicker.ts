// The composer's `/` picker (DESIGN.md §7: `/` picks skills), as pure functions: where a
// `/name` being typed starts, which skills match it, and the text once one is picked.
// A `/` counts at the start of the message or after whitespace, as the host reads
// `/skill-name` in a message (src/core/skills/skillText.ts slashSkills).
import type { SkillInfo } from '../src/shared/messages';

export interface SlashToken {
  /** Where the `/` is. */
  readonly start: number;
  /** Where the name being typed ends (the caret, or past name characters after it). */
  readonly end: number;
  /** What was typed after the `/`, up to the caret. */
  readonly query: string;
}

const NAME_CHAR = /[a-z0-9-]/i;

/** The `/name` the caret is in, or undefined when it is in none. */
export function slashToken(text: string, caret: number): SlashToken | undefined {
  let start = caret;
  while (start > 0 && NAME_CHAR.test(text[start - 1]!)) start--;
  if (start === 0 || text[start - 1] !== '/') return undefined;
  const slash = start - 1;
  if (slash > 0 && !/\s/.test(text[slash - 1]!)) return undefined;
  let end = caret;
  while (end < text.length && NAME_CHAR.test(text[end]!)) end++;
  return { start: slash, end, query: text.slice(start, caret).toLowerCase() };
}

/** Skills whose name starts with the query first, then those whose name or description holds it; at most `max`. */
export function matchSkills(skills: readonly SkillInfo[], query: string, max = 50): SkillInfo[] {
  const q = query.toLowerCase();
  const byName = (a: SkillInfo, b: SkillInfo): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const prefix = skills.filter((s) => s.name.startsWith(q)).sort(byName);
  const inName = skills.filter((s) => !s.name.startsWith(q) && s.name.includes(q)).sort(byName);
  const inDescription = q === '' ? [] : skills.filter((s) => !s.name.includes(q) && s.description.toLowerCase().includes(q)).sort(byName);
  return [...prefix, ...inName, ...inDescription].slice(0, max);
}

/** The text with the token replaced by `/name ` and where the caret goes (after the space). */
export function pickSkill(text: string, token: SlashToken, name: string): { text: string; caret: number } {
  const rest = text.slice(token.end);
  const inserted = `/${name}${rest.startsWith(' ') ? '' : ' '}`;
  const caret = token.start + inserted.length + (rest.startsWith(' ') ? 1 : 0);
  return { text: text.slice(0, token.start) + inserted + rest, caret };
}
