import { expect, test } from 'vitest';
import { deadline } from '../../src/core/deadline';

const aborted = (signal: AbortSignal): Promise<unknown> => new Promise((resolve) => (signal.aborted ? resolve(signal.reason) : signal.addEventListener('abort', () => resolve(signal.reason), { once: true })));

test('a deadline aborts with a TimeoutError when its time is up', async () => {
  const limit = deadline(new AbortController().signal, 20);
  expect(await aborted(limit.signal)).toMatchObject({ name: 'TimeoutError' });
});

test("the parent's abort reaches it with the parent's reason, also when the parent was aborted already", async () => {
  const parent = new AbortController();
  const limit = deadline(parent.signal, 60_000);
  parent.abort(new Error('Stop'));
  expect(await aborted(limit.signal)).toMatchObject({ message: 'Stop' });
  limit.clear();
  const early = deadline(parent.signal, 60_000);
  expect(early.signal.aborted).toBe(true);
  early.clear();
});

test('cleared, it never fires: the work ended first', async () => {
  const limit = deadline(new AbortController().signal, 10);
  limit.clear();
  const later = deadline(new AbortController().signal, 40);
  await aborted(later.signal); // longer than the first deadline had
  expect(limit.signal.aborted).toBe(false);
});
