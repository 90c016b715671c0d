// B5: list, the two-level view of the workspace fixture root, against `find -maxdepth 2`.
import { ensureCorpora } from '../corpora.mjs';
import { ratioRow, timeAsync, timeCommand } from '../measure.mjs';
import { toolSession } from '../toolHarness.mjs';

export const id = 'B5';
export const title = 'list: two-level view of the fixture root vs find -maxdepth 2';

export async function run() {
  const { fixture } = await ensureCorpora({ log: () => {} });
  const session = toolSession(fixture);
  const measured = await timeAsync(() => session.call('list', {}));
  const reference = timeCommand('find', ['.', '-maxdepth', '2'], { cwd: fixture });
  return ratioRow(measured, reference, 2, 'list stops at 1,000 entries by design; find prints all 2,175');
}
