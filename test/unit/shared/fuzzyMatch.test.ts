// The `@` picker's matcher (src/shared/fuzzyMatch.ts): characters in order, the file's
// own name first, whole runs and word starts ranked up, shorter paths on ties.
import { expect, test } from 'vitest';
import { fuzzyMatch, rankMatches } from '../../../src/shared/fuzzyMatch';

const paths = [
  'README.md',
  'index.js',
  'legacy.js',
  'src/',
  'src/index.ts',
  'src/lib/',
  'src/lib/indexer.ts',
  'src/lib/findInDocs.ts',
  'test/index.test.ts',
  'docs/intro/',
  'docs/intro/getting-started.md',
  'webview/ChatViewProvider.ts',
].map((path) => ({ path }));
const ranked = (query: string, max = 20): string[] => rankMatches(query, paths, max).map((m) => m.path);

test('the characters must occur in order, in any case', () => {
  expect(fuzzyMatch('idx', 'index.js')).toBeDefined();
  expect(fuzzyMatch('IDX', 'index.js')).toBeDefined();
  expect(fuzzyMatch('xdi', 'index.js')).toBeUndefined();
  expect(fuzzyMatch('indexes', 'index.js')).toBeUndefined();
  expect(ranked('zzz')).toEqual([]);
});

test('a name typed out, then a name that starts so, then a name that holds it, then matches spread over folders', () => {
  expect(ranked('index')).toEqual(['index.js', 'src/index.ts', 'test/index.test.ts', 'src/lib/indexer.ts']);
  // "ind" also starts a word inside findInDocs, but a name starting with it ranks higher.
  expect(ranked('ind').slice(0, 4)).toEqual(['index.js', 'src/index.ts', 'src/lib/indexer.ts', 'test/index.test.ts']);
  expect(ranked('ind')).toContain('src/lib/findInDocs.ts');
});

test('word starts (camelCase, after - _ . /) rank above the same characters inside words', () => {
  expect(ranked('cvp')[0]).toBe('webview/ChatViewProvider.ts');
  expect(ranked('gs')[0]).toBe('docs/intro/getting-started.md');
});

test('a query with a slash matches over the whole path', () => {
  expect(ranked('src/ind')).toEqual(['src/index.ts', 'src/lib/indexer.ts', 'src/lib/findInDocs.ts']);
  expect(ranked('lib/')).toEqual(['src/lib/', 'src/lib/indexer.ts', 'src/lib/findInDocs.ts']);
});

test('folders match by their name, without the trailing slash', () => {
  expect(ranked('src')[0]).toBe('src/');
  expect(ranked('intro')[0]).toBe('docs/intro/');
});

test('an empty query lists the shallow entries first, and stops at the maximum', () => {
  expect(ranked('', 4)).toEqual(['src/', 'index.js', 'legacy.js', 'README.md']);
  expect(rankMatches('', paths, 3)).toHaveLength(3);
});

test('the positions are where the query matched, for highlighting', () => {
  expect(fuzzyMatch('idx', 'src/index.ts')?.positions).toEqual([4, 6, 8]);
  expect(fuzzyMatch('dex', 'src/index.ts')?.positions).toEqual([6, 7, 8]);
  expect(fuzzyMatch('s/i', 'src/index.ts')?.positions).toEqual([0, 3, 4]);
});
