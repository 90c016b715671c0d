// B7: read lines 1,500,000–1,500,200 of the 50 MiB file (cold: the hash and line count
// are computed in the same pass) against `sed -n '1500000,1500200p'`.
import path from 'node:path';
import { ensureCorpora } from '../corpora.mjs';
import { ratioRow, timeAsync, timeCommand } from '../measure.mjs';
import { forgetDigest, toolSession } from '../toolHarness.mjs';

export const id = 'B7';
export const title = 'read lines 1,500,000-1,500,200 of 50 MiB (cold) vs sed -n';

export async function run() {
  const { bigFile } = await ensureCorpora({ log: () => {} });
  const session = toolSession(path.dirname(bigFile));
  const input = { path: path.basename(bigFile), offset: 1_500_000, limit: 201 };
  const measured = await timeAsync(() => session.call('read', input), { before: () => forgetDigest(bigFile) });
  const reference = timeCommand('sed', ['-n', '1500000,1500200p', bigFile]);
  return ratioRow(measured, reference, 1.5);
}
