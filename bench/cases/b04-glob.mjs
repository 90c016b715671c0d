// B4: glob `**/*.js` in the workspace fixture (a git repository with a gitignored
// node_modules) against `rg --files -g '*.js'`. Budget ≤ 1.5×, and exactly the set of
// `git ls-files -co --exclude-standard` filtered by the pattern.
import { execFileSync } from 'node:child_process';
import { ensureCorpora } from '../corpora.mjs';
import { ratioRow, timeAsync, timeCommand } from '../measure.mjs';
import { ripgrep, toolSession } from '../toolHarness.mjs';

export const id = 'B4';
export const title = 'glob **/*.js in the fixture vs rg --files -g';

export async function run() {
  const { fixture } = await ensureCorpora({ log: () => {} });
  const session = toolSession(fixture, { ripgrep });
  const measured = await timeAsync(() => session.call('glob', { pattern: '**/*.js' }));
  const reference = timeCommand(ripgrep, ['--files', '-g', '*.js'], { cwd: fixture });
  const result = await session.call('glob', { pattern: '**/*.js' });
  const found = result.output.split('\n').filter((line) => line !== '' && !line.startsWith('[')).sort();
  const git = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: fixture, encoding: 'utf8', maxBuffer: 1 << 26 })
    .split('\n')
    .filter((f) => f.endsWith('.js'))
    .sort();
  const same = JSON.stringify(found) === JSON.stringify(git);
  const row = ratioRow(measured, reference, 1.5, same ? `same ${git.length} files as git ls-files -co --exclude-standard` : `DIFFERENT set: ${found.length} vs git's ${git.length}`);
  return { ...row, pass: row.pass && same };
}
