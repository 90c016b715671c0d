import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { lineMatcher, parseRe2 } from '../../../src/core/search/re2';
import { locateRipgrep } from '../../../src/core/search/ripgrep';
import { ToolError } from '../../../src/core/tools/toolError';
import { tempDir } from '../tools/toolTestContext';

const rejection = (pattern: string): ToolError => {
  try {
    parseRe2(pattern);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return error as ToolError;
  }
  throw new Error(`${pattern} was accepted`);
};

describe('parseRe2: what Go rejects is invalid_input, with a hint', () => {
  test.each([
    ['(a)\\1', /backreference \\1.*no backreferences/],
    ['(?P<w>a)\\k<w>', /backreference \\k/],
    ['(?P<w>a)(?P=w)', /backreference \(\?P=name\)/],
    ['foo(?=bar)', /lookahead.*no lookaround/],
    ['foo(?!bar)', /lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /lookbehind/],
    ['(?>ab)', /atomic group.*\(\?:\.\.\.\)/],
    ['a*+', /nested repetition.*Possessive/],
    ['a++', /nested repetition/],
    ['a**', /nested repetition/],
    ['*a', /missing argument to repetition/],
    ['a|?', /missing argument/],
    ['(?U)a+', /ungreedy.*lazy/],
    ['(?x) a', /unsupported group syntax/],
    ['(?#note)a', /comment group/],
    ['a(?i)b', /at the very start/],
    ['a(?i:b)', /at the very start/],
    ['a{1001}', /repeat count/],
    ['a{3,2}', /repeat count/],
    ['(a', /missing closing \)/],
    ['a)', /unexpected \)/],
    ['[a', /missing closing \]/],
    ['[z-a]', /character class range/],
    ['[[:nope:]]', /unknown POSIX class/],
    ['\\p{Nope}', /unknown Unicode class/],
    ['a\\', /trailing backslash/],
    ['\\u00e9', /\\x\{00E9\}/],
    ['\\Z', /\\z or \$/],
    ['\\e', /the escape \\e/],
    ['[\\b]', /the escape \\b inside/],
    ['a\\nb', /newline/],
    ['(?P<x>a)(?P<x>b)', /duplicate capture group name/],
    ['(?P<a-b>x)', /capture group name/],
    ['\\x{110000}', /invalid \\x escape/],
  ])('%s', (pattern, message) => {
    const error = rejection(pattern);
    expect(error.code).toBe('invalid_input');
    expect(error.message).toMatch(message);
    expect(error.message).toContain(JSON.stringify(pattern));
  });
});

describe('parseRe2: Go syntax that JS lacks is translated', () => {
  const matches = (pattern: string, line: string): boolean => lineMatcher(parseRe2(pattern)).line.test(line);

  test('leading inline flags: (?i) case-folds, (?s) and (?m) change nothing line by line', () => {
    expect(parseRe2('(?i)Foo')).toMatchObject({ ignoreCase: true, rust: '(?i)Foo' });
    expect(matches('(?i)héllo', 'HÉLLO')).toBe(true);
    expect(matches('(?is)(?m)^a.c$', 'A\rC')).toBe(true);
    expect(matches('(?-i)a', 'A')).toBe(false);
  });

  test('named groups, \\A, \\z, POSIX classes, \\Q...\\E, hex and octal escapes', () => {
    expect(matches('(?P<word>ab)+c', 'xababc')).toBe(true);
    expect(matches('(?<word>ab)c', 'abc')).toBe(true);
    expect(matches('\\Afoo', 'foo bar')).toBe(true);
    expect(matches('\\Afoo', 'a foo')).toBe(false);
    expect(matches('bar\\z', 'foo bar')).toBe(true);
    expect(matches('bar\\z', 'bar foo')).toBe(false);
    expect(matches('^[[:digit:]]+$', '12345')).toBe(true);
    expect(matches('^[[:^alpha:][:digit:]]+$', '1-2')).toBe(true);
    expect(matches('[[:upper:]]', 'abc')).toBe(false);
    expect(matches('\\Qa.b*(c\\E+', 'a.b*(cc')).toBe(true);
    expect(matches('\\Qa.b\\E', 'aXb')).toBe(false);
    expect(matches('^\\x41\\x{1F600}\\011\\0$', 'A😀\t\0')).toBe(true); // \0 starts an octal escape; \1 is a backreference
  });

  test('literal braces and brackets as Go reads them', () => {
    expect(matches('a{,3}', 'a{,3}')).toBe(true);
    expect(matches('a{', 'a{')).toBe(true);
    expect(matches('[]a]+', ']a]')).toBe(true);
    expect(matches('[^]a]', ']')).toBe(false);
    expect(matches('[a-]', '-')).toBe(true);
    expect(matches('^*x', 'x')).toBe(true);
  });

  test('\\w, \\d, \\s, \\b and . are Unicode-aware, like ripgrep', () => {
    expect(matches('^\\w+$', 'straße_κόσμος')).toBe(true);
    expect(matches('^\\d$', '٣')).toBe(true);
    expect(matches('a\\sb', 'a\u00a0b')).toBe(true);
    expect(matches('\\bκό', 'x κόσμος')).toBe(true);
    expect(matches('\\Bσμ', 'κόσμος')).toBe(true);
    expect(matches('^.$', '😀')).toBe(true);
    expect(matches('a.b', 'a\rb')).toBe(true);
    expect(matches('\\p{Greek}+', 'κόσμος')).toBe(true);
    expect(matches('\\PL', 'abc')).toBe(false);
  });
});

describe('the JS translation finds the same lines as ripgrep', () => {
  const rg = locateRipgrep();
  const lines = [
    'foo bar', 'HÉLLO world', 'ab ab c', '123 x', 'x٣', 'word', 'swordfish', 'κόσμος', 'emoji 😀 A', 'a{,3}', '[x]&&',
    'tab\there', 'win\r', '_under', 'straße', 'STRASSE', 'ǅ', 'kelvin \u212a', 'foo.bar', 'a-b', '', 'end',
  ];
  const patterns = [
    'foo', '(?i)héllo', '[[:digit:]]+', '\\d', 'x\\z', '\\Aword', '\\bword\\b', '\\w+\\b', '\\p{Greek}+', '[\\w&&x]',
    '\\x{1F600}', 'a{,3}', '\\Q[x]&&\\E', '\\t', 'n\\r$', 'n$', '^_', '(?i)strasse', '(?i)k', '(?i)ǆ', '[^a-z ]', '.t.',
    '\\W', '[[:^alpha:]]', '(?i)[[:upper:]]+', '\\B', '^$', '^.{3}$', '[a\\-z]', '(?P<n>o)+', 'b|^e', '[^\\d\\s]{5}',
  ];
  test.skipIf(!rg).each(patterns)('%s', (pattern) => {
    const dir = tempDir();
    const file = path.join(dir, 'lines.txt');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const parsed = parseRe2(pattern);
    const { line } = lineMatcher(parsed);
    const viaJs = lines.flatMap((l, i) => (line.test(l) ? [i + 1] : []));
    const out = spawnSync(rg!, ['--no-config', '-n', '--no-filename', '-e', parsed.rust, file], { encoding: 'utf8' });
    expect(out.stderr).toBe('');
    const viaRg = out.stdout.split('\n').filter(Boolean).map((l) => Number.parseInt(l, 10));
    expect(viaJs).toEqual(viaRg);
  });
});
