import { expect, test } from 'vitest';
import { hiddenCount, revealHidden } from '../../../src/shared/hiddenText';

test('bidi overrides, zero-width and tag characters are named; the visible text is kept whole', () => {
  const pieces = revealHidden('ls\u202E -la\u200B\u{E0041}x\tend');
  expect(pieces).toEqual([
    { text: 'ls', hidden: false },
    { text: '⟨U+202E⟩', hidden: true },
    { text: ' -la', hidden: false },
    { text: '⟨U+200B⟩', hidden: true },
    { text: '⟨U+E0041⟩', hidden: true },
    { text: 'x\tend', hidden: false },
  ]);
  expect(hiddenCount(pieces)).toBe(3);
});

test('a 20 KB command with hidden characters loses nothing', () => {
  const command = `${'echo ok && '.repeat(1800)}\u2066rm -rf x\u2069`;
  const pieces = revealHidden(command);
  expect(pieces.filter((p) => !p.hidden).map((p) => p.text).join('')).toBe(command.replace(/[\u2066\u2069]/g, ''));
  expect(hiddenCount(pieces)).toBe(2);
  expect(revealHidden('plain text')).toEqual([{ text: 'plain text', hidden: false }]);
});
