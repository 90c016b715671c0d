// B8: edit one unique string in the middle of a 50 MiB file (a copy, with a marker line
// in the middle) against copying the file with `cp`. The edit hashes, validates UTF-8,
// replaces, writes a temp file, fsyncs it and renames it; cp does none of the safety.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCorpora } from '../corpora.mjs';
import { ratioRow, timeAsync, timeCommand } from '../measure.mjs';
import { toolSession } from '../toolHarness.mjs';

export const id = 'B8';
export const title = 'edit a unique string mid-file in 50 MiB vs cp';

export async function run() {
  const { bigFile } = await ensureCorpora({ log: () => {} });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b8-'));
  const target = path.join(dir, 'big.txt');
  const bytes = fs.readFileSync(bigFile);
  const middle = bytes.indexOf(10, bytes.length >> 1) + 1;
  fs.writeFileSync(target, Buffer.concat([bytes.subarray(0, middle), Buffer.from('// PEON-B8-MARKER-A\n'), bytes.subarray(middle)]));
  const session = toolSession(dir);
  let from = 'A';
  const measured = await timeAsync(
    async () => {
      const to = from === 'A' ? 'B' : 'A';
      await session.call('edit', { path: 'big.txt', oldString: `PEON-B8-MARKER-${from}`, newString: `PEON-B8-MARKER-${to}` });
      from = to;
    },
    { before: () => session.call('read', { path: 'big.txt', limit: 1 }) },
  );
  const reference = timeCommand('cp', [target, path.join(dir, 'copy.txt')]);
  fs.rmSync(dir, { recursive: true, force: true });
  return ratioRow(measured, reference, 3);
}
