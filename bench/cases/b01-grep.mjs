// B1: the grep tool with a selective regex over the Go tree and over the workspace
// fixture, against `rg -n PATTERN .` in the same directory. Budget ≤ 1.25×.
// B2: a pattern with 100k+ hits at the default limit, against `rg -n` printing all of
// them. Budget ≤ 0.15×: the tool must stop reading and kill rg once it has enough.
// B3: the selective grep with no ripgrep at all (the pure-Node fallback) vs `rg -n`. ≤ 6×.
import { ensureCorpora } from '../corpora.mjs';
import { ratioRow, timeAsync, timeCommand } from '../measure.mjs';
import { ripgrep, toolSession } from '../toolHarness.mjs';

export const id = 'B1';
export const title = 'grep, selective regex, vs rg -n (B2: 100k+ hits, default limit; B3: no ripgrep)';

const SELECTIVE = 'func \\(\\w+ \\*\\w+\\) Close\\(\\) error';
const MANY = 'err';

export async function run() {
  const { goTree, fixture } = await ensureCorpora({ log: () => {} });
  if (!ripgrep) throw new Error('no ripgrep found for the grep benchmarks');
  const rows = [];
  for (const [where, dir] of [['Go tree', goTree], ['fixture', fixture]]) {
    const session = toolSession(dir, { ripgrep });
    const measured = await timeAsync(() => session.call('grep', { pattern: SELECTIVE, headLimit: 0 }));
    const reference = timeCommand(ripgrep, ['-n', SELECTIVE, '.'], { cwd: dir });
    rows.push({ id: 'B1', title: `grep selective regex over the ${where} vs rg -n`, ...ratioRow(measured, reference, 1.25) });
  }
  const session = toolSession(goTree, { ripgrep });
  const many = await timeAsync(() => session.call('grep', { pattern: MANY }));
  const all = timeCommand(ripgrep, ['-n', MANY, '.'], { cwd: goTree });
  rows.push({ id: 'B2', title: `grep "${MANY}" (100k+ hits), default limit, vs rg -n printing all`, ...ratioRow(many, all, 0.15) });
  const fallback = toolSession(goTree, { ripgrep: undefined });
  const node = await timeAsync(() => fallback.call('grep', { pattern: SELECTIVE, headLimit: 0 }), { runs: 5 });
  const reference = timeCommand(ripgrep, ['-n', SELECTIVE, '.'], { cwd: goTree });
  rows.push({ id: 'B3', title: 'grep without ripgrep (pure Node) over the Go tree vs rg -n', ...ratioRow(node, reference, 6) });
  return rows;
}
