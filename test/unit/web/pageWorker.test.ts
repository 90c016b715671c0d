// The worker the web tools parse pages in (dist/markdownWorker.js, built by the unit
// tests' global setup): kept warm without piling up listeners, and a missing script is a
// clear error, never a hang.
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { pageWorker } from '../../../src/core/web/pageWorker';
import { ToolError } from '../../../src/core/tools/toolError';

const script = path.resolve(__dirname, '../../../dist/markdownWorker.js');
const base = new URL('https://example.test/docs/');
const warnings: string[] = [];
const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
afterEach(() => {
  process.off('warning', onWarning);
  vi.useRealTimers();
});

test('one warm worker converts page after page, without a listener left behind per job', async () => {
  process.on('warning', onWarning);
  const worker = pageWorker(script);
  for (let i = 0; i < 15; i++) {
    expect(await worker.markdown(`<h1>Page ${i}</h1><a href="x">link</a>`, base, new AbortController().signal, 10_000)).toEqual({ title: '', markdown: `# Page ${i}\n\n[link](https://example.test/docs/x)` });
  }
  expect(await worker.search('<html><body>hello</body></html>', base, 10, new AbortController().signal, 10_000)).toEqual({ kind: 'blocked', reason: 'not a DuckDuckGo results page' });
  await new Promise((resolve) => setImmediate(resolve));
  expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
});

test('a missing worker script is an io_error, not a hang', async () => {
  const missing = pageWorker(path.join(path.dirname(script), 'no-such-worker.js'));
  const failure = await missing.markdown('<p>x</p>', base, new AbortController().signal, 60_000).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ToolError);
  expect(failure).toMatchObject({ code: 'io_error' });
});

test('without a worker script the job runs in this thread (a test of the conversion itself)', async () => {
  expect(await pageWorker(undefined).markdown('<h2>Here</h2>', base, new AbortController().signal, 1000)).toEqual({ title: '', markdown: '## Here' });
});

test('a job that arrives as the idle worker is let go gets a worker that works', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const worker = pageWorker(script);
  const signal = new AbortController().signal;
  expect(await worker.markdown('<h1>one</h1>', base, signal, 10_000)).toMatchObject({ markdown: '# one' });
  vi.advanceTimersByTime(15_000); // the idle worker is terminated now
  expect(await worker.markdown('<h1>two</h1>', base, signal, 10_000)).toMatchObject({ markdown: '# two' });
});
