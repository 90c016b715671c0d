// B6: read with defaults on the 50 MiB file (first 2,000 lines + the whole file's sha256
// and line count) against `sha256sum`, one full pass being the floor. B6b: the same read
// again on the unchanged file (hash reused) against `head -n 2000`.
import path from 'node:path';
import { ensureCorpora } from '../corpora.mjs';
import { ratioRow, timeAsync, timeCommand } from '../measure.mjs';
import { forgetDigest, toolSession } from '../toolHarness.mjs';

export const id = 'B6';
export const title = 'read defaults on 50 MiB (cold hash) vs sha256sum; B6b warm vs head -n 2000';

export async function run() {
  const { bigFile } = await ensureCorpora({ log: () => {} });
  const session = toolSession(path.dirname(bigFile));
  const name = path.basename(bigFile);
  const cold = await timeAsync(() => session.call('read', { path: name }), { before: () => forgetDigest(bigFile) });
  const sha = timeCommand('sha256sum', [bigFile]);
  const warm = await timeAsync(() => session.call('read', { path: name }), { runs: 15 });
  const head = timeCommand('head', ['-n', '2000', bigFile], { runs: 15 });
  const b6 = ratioRow(cold, sha, 1.5);
  const b6b = ratioRow(warm, head, 3);
  return [b6, { id: 'B6b', title: 'read defaults again, file unchanged, vs head -n 2000', ...b6b }];
}
