// B14: the whole gate for a small read (validate -> assess -> permission -> execute ->
// result) against fs.readFileSync of the same file. Budget: ≤ 1 ms median.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '../measure.mjs';
import { toolSession } from '../toolHarness.mjs';

export const id = 'B14';
export const title = 'read of a small file through the whole gate vs fs.readFileSync';

export async function run() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b14-'));
  fs.writeFileSync(path.join(dir, 'small.ts'), 'export const answer = 42;\n'.repeat(20));
  const session = toolSession(dir);
  const sample = async (fn, runs) => {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const started = process.hrtime.bigint();
      await fn();
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return median(times.slice(runs / 5)); // the first fifth warms up
  };
  const measured = await sample(() => session.call('read', { path: 'small.ts' }), 500);
  const reference = await sample(() => fs.readFileSync(path.join(dir, 'small.ts')), 500);
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    reference: `${reference.toFixed(4)} ms`,
    measured: `${measured.toFixed(4)} ms`,
    ratio: measured / reference,
    budget: '≤ 1 ms',
    pass: measured <= 1,
    note: '',
  };
}
