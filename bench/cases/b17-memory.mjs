// B17: mem-search over 10,000 memory entries (observations and summaries as Peon writes
// them, Markdown generated from a fixed seed), against `rg -l -i` of the query's terms
// over the same folder, warm. Measured: the whole search as the tool runs it — the
// index brought up to date with the disk (every file's size and time checked), BM25,
// the score gate, stale checks of the hits, the XML. Warm: the store has searched
// before (its index kept current). Cold: a new store, as in a new session: it starts
// from the index saved under .peon/memory/.cache/ and checks every file against it.
// Budgets: ≤ 1× warm, ≤ 3× cold. Also shown (no budget in PERF.md): the very first
// search, with no saved index, which reads, parses and indexes all 10,000 files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTs } from '../../scripts/loadTs.mjs';
import { ripgrep } from '../toolHarness.mjs';
import { ratioRow, timeAsync, timeCommand } from '../measure.mjs';

export const id = 'B17';
export const title = 'mem-search over 10,000 entries vs rg -l of its terms (warm: index kept current; cold: a new store)';

const ENTRIES = 10_000;
const QUERY = 'flaky login timeout';

/** A small deterministic PRNG (mulberry32), so every run writes the same corpus. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = `the a of to and in for is on that with as it was by be this are from at or an not but have which has were can when if all we will use should then build test tests error fails fixed cache config server client request response timeout retry login session user token auth database query index migration schema table column api endpoint route handler middleware component render state store hook effect props webpack vite bundle module import export type interface function class method async await promise stream buffer file path folder read write deploy release version branch merge commit rebase lint format style css layout theme color font flaky slow fast memory leak worker thread queue job cron email notification payment invoice order cart search filter sort page scroll modal button form input validation upload download image video cdn dns proxy certificate tls docker container kubernetes pod node cluster log metric trace alert dashboard`.split(/\s+/);
const DIRS = ['src', 'src/auth', 'src/api', 'lib', 'tests', 'web/components', 'scripts', 'config'];

export function corpus(root) {
  const next = random(17);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(next() * 14) }, () => pick(WORDS));
    return `${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase());
  };
  for (const kind of ['observations', 'summaries']) fs.mkdirSync(path.join(root, '.peon/memory', kind), { recursive: true });
  const index = [];
  for (let i = 0; i < ENTRIES; i++) {
    const summary = i % 5 === 0;
    const id = `${summary ? 'sum' : 'obs'}-${i.toString(16).padStart(6, '0')}`;
    const title = Array.from({ length: 3 + Math.floor(next() * 4) }, () => pick(WORDS)).join(' ');
    const file = `${pick(DIRS)}/${pick(WORDS)}.ts`;
    const paragraphs = Array.from({ length: 2 + Math.floor(next() * 4) }, () => Array.from({ length: 2 + Math.floor(next() * 4) }, sentence).join(' '));
    const body = `${paragraphs.join('\n\n')}\n\n- See \`${file}\`.\n`;
    const text = `---\nid: ${id}\nkind: ${summary ? 'summary' : 'observation'}\ncreated: 2026-0${1 + (i % 9)}-1${i % 10}T10:00:00.000Z\n${summary ? '' : `files:\n  - path: ${file}\n    sha256: ${'0'.repeat(64)}\n`}---\n# ${title}\n\n${body}`;
    fs.writeFileSync(path.join(root, '.peon/memory', summary ? 'summaries' : 'observations', `${id}.md`), text);
    index.push(`- ${id}: ${title}`);
  }
  fs.writeFileSync(path.join(root, '.peon/memory/index.md'), `# Memory index\n\n${index.join('\n')}\n`);
}

export async function run() {
  if (!ripgrep) throw new Error('no ripgrep found for B17');
  const core = await loadTs('bench/toolsEntry.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b17-'));
  try {
    corpus(dir);
    const memory = path.join(dir, '.peon/memory');
    const settings = () => ({ 'peon.memory.relevanceGate': 'score', 'peon.memory.minScore': 0.3 });
    const signal = new AbortController().signal;
    const reference = timeCommand(ripgrep, ['-l', '-i', ...QUERY.split(' ').flatMap((t) => ['-e', t]), memory], { runs: 11 });
    const warmStore = new core.MemoryStore(dir);
    const warmAccess = core.memoryAccess(warmStore, settings, undefined);
    let last;
    const warm = await timeAsync(async () => (last = await warmAccess.search(QUERY, 5, signal)), { runs: 11 });
    if (!/count="5"/.test(last.output)) throw new Error(`B17: the search found ${last.output.match(/count="(\d+)"/)?.[1]} entries, not 5`);
    const cold = await timeAsync(() => core.memoryAccess(new core.MemoryStore(dir), settings, undefined).search(QUERY, 5, signal), { runs: 7 });
    const cache = path.join(memory, '.cache');
    const first = await timeAsync(() => core.memoryAccess(new core.MemoryStore(dir), settings, undefined).search(QUERY, 5, signal), { runs: 3, before: () => fs.rmSync(cache, { recursive: true, force: true }) });
    return [
      { ...ratioRow(warm, reference, 1, `${ENTRIES.toLocaleString('en-US')} entries, query "${QUERY}", score gate, 5 results`), pass: warm / reference <= 1 },
      {
        id: 'B17b',
        title: 'mem-search cold (a new session: a new store from the saved index) vs rg -l',
        ...ratioRow(cold, reference, 3, `every file checked against the saved index; the very first search, with no saved index, takes ${first.toFixed(0)} ms (${(first / reference).toFixed(1)}×)`),
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
