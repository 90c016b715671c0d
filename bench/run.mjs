#!/usr/bin/env node
// `npm run bench`: every case in bench/cases, one markdown table and one JSON file in
// bench/results/. Benchmarks print ratios against a reference measured in the same run;
// they are never part of `npm test`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../scripts/paths.mjs';

const casesDir = path.join(repoRoot, 'bench', 'cases');
const resultsDir = path.join(repoRoot, 'bench', 'results');
const only = process.argv.slice(2);

const rows = [];
for (const file of fs.readdirSync(casesDir).filter((f) => f.endsWith('.mjs')).sort()) {
  const bench = await import(pathToFileURL(path.join(casesDir, file)).href);
  if (only.length > 0 && !only.includes(bench.id)) continue;
  process.stdout.write(`${bench.id} ${bench.title} … `);
  // A case returns one row, or several (B6 also measures B6b).
  const results = [await bench.run()].flat();
  console.log(results.map((r) => (r.pass ? 'PASS' : 'FAIL')).join(' '));
  for (const result of results) rows.push({ id: bench.id, title: bench.title, ...result });
}

const table = [
  '| case | what | reference | measured | ratio | budget | result | note |',
  '|---|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.id} | ${r.title} | ${r.reference} | ${r.measured} | ${r.ratio.toFixed(2)}× | ${r.budget} | ${r.pass ? 'PASS' : 'FAIL'} | ${r.note} |`),
].join('\n');
fs.mkdirSync(resultsDir, { recursive: true });
fs.writeFileSync(path.join(resultsDir, 'bench.md'), `${table}\n`);
fs.writeFileSync(path.join(resultsDir, 'bench.json'), JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));
console.log(`\n${table}`);
if (rows.some((r) => !r.pass)) process.exitCode = 1;
