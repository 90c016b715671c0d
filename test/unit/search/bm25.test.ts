import { expect, test } from 'vitest';
import { Bm25Index, terms } from '../../../src/core/search/bm25';

test('terms: lower case, a path and an identifier in pieces, plurals singular (Harman\'s S-stemmer)', () => {
  expect(terms('Incident Reports in src/auth/login_flow.ts')).toEqual(['incident', 'report', 'in', 'src', 'auth', 'login_flow', 'ts']);
  // The stemmer's own rules, applied alike to documents and queries: "classes" and "classe" meet, "status" and "pass" stay.
  expect(terms('queries classes status pass bus reports')).toEqual(['query', 'classe', 'status', 'pass', 'bus', 'report']);
});

test('a plural in the query finds the singular in a document, and the other way round', () => {
  const index = new Bm25Index<string>();
  index.set('a', 'Incident reports', 'We write them within a day.');
  index.set('b', 'Deploys', 'Fridays only.');
  expect(index.search('incident report').map((r) => r.key)).toEqual(['a']);
  expect(index.search('deploy').map((r) => r.key)).toEqual(['b']);
});

test('a query word no document holds weighs nothing: it neither ranks nor lowers the share', () => {
  const index = new Bm25Index<string>();
  index.set('a', 'Login', 'The login test is flaky.');
  index.set('b', 'Build', 'The build is slow.');
  const plain = index.search('login')[0]!;
  const padded = index.search('please login xyzzy')[0]!;
  expect(padded.key).toBe('a');
  expect(padded.normalised).toBeCloseTo(plain.normalised, 10);
});

test('replaced and deleted documents leave the ranking as if they were never there, also after saving and loading', () => {
  const index = new Bm25Index<string>();
  for (let i = 0; i < 600; i++) index.set(`d${i}`, `note ${i}`, i % 2 ? 'kumquat pie' : 'apple pie');
  for (let i = 0; i < 600; i += 2) index.delete(`d${i}`); // past 256 removed: compacted
  index.set('d1', 'note 1', 'apple pie'); // replaced
  const fresh = new Bm25Index<string>();
  for (let i = 1; i < 600; i += 2) fresh.set(`d${i}`, `note ${i}`, i === 1 ? 'apple pie' : 'kumquat pie');
  const ranking = (ix: Bm25Index<string>) => ix.search('kumquat apple').map((r) => [r.key, r.score.toFixed(9)]);
  expect(ranking(index).sort()).toEqual(ranking(fresh).sort());
  const loaded = Bm25Index.load(JSON.parse(JSON.stringify(index.save())), (k): k is string => typeof k === 'string')!;
  expect(ranking(loaded)).toEqual(ranking(index));
  expect(Bm25Index.load({ keys: ['a'], lengths: [1], postings: { x: [5, 1] } }, (k): k is string => typeof k === 'string')).toBeUndefined();
});
