// Parsing pages with a deadline that holds and a Stop that works whatever the page: the
// job runs in a worker thread (markdownWorker.ts) with a bounded heap, kept warm for a
// little while between calls and terminated when the deadline passes, Stop is pressed,
// or its memory runs out. Without a worker script (a test of the conversion itself) the
// job runs in this thread.
import { Worker } from 'node:worker_threads';
import { ToolError } from '../tools/toolError';
import type { PageMarkdown } from './htmlToMarkdown';
import type { JobReply, PageJob } from './markdownWorker';
import type { SearchPage } from './searchResults';

/** The worker's heap: a real 10 MiB article converts in about 300 MB; a bomb hits this and only the worker dies. */
const WORKER_HEAP_MB = 512;
/** An idle worker is let go after this long, so its memory does not stay with the host. */
const IDLE_MS = 15_000;

export interface PageWorker {
  markdown(html: string, base: URL, signal: AbortSignal, timeoutMs: number): Promise<PageMarkdown>;
  search(html: string, base: URL, max: number, signal: AbortSignal, timeoutMs: number): Promise<SearchPage>;
}

/** The worker for a script (dist/markdownWorker.js beside the bundle), or this thread when there is none. */
export function pageWorker(script: string | undefined): PageWorker {
  // In this thread the converter is loaded when first asked for (the bundles find it beside them: esbuild.mjs).
  const run = script ? (job: PageJob, signal: AbortSignal, timeoutMs: number) => inWorker(script, job, signal, timeoutMs) : async (job: PageJob) => (await import('./markdownWorker')).runJob(job);
  return {
    markdown: async (html, base, signal, timeoutMs) => (await run({ kind: 'markdown', html, base: base.href }, signal, timeoutMs)) as PageMarkdown,
    search: async (html, base, max, signal, timeoutMs) => (await run({ kind: 'search', html, base: base.href, max }, signal, timeoutMs)) as SearchPage,
  };
}

interface Warm {
  readonly worker: Worker;
  timer?: NodeJS.Timeout;
}

const idle = new Map<string, Warm>();

function start(script: string): Worker {
  const worker = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  // Once, for the worker's whole life: an idle worker that exits or errs is only dropped.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    const warm = idle.get(script);
    if (warm?.worker === worker) {
      clearTimeout(warm.timer);
      idle.delete(script);
    }
  });
  return worker;
}

function take(script: string): Worker {
  const warm = idle.get(script);
  if (!warm) return start(script);
  clearTimeout(warm.timer);
  idle.delete(script);
  return warm.worker;
}

function putBack(script: string, worker: Worker): void {
  if (idle.has(script)) {
    void worker.terminate();
    return;
  }
  // A waiting worker must not keep the CLI alive, nor its memory the host for long.
  worker.unref();
  // Out of the idle list first, so no job is handed a worker that is shutting down.
  const timer = setTimeout(() => {
    if (idle.get(script)?.worker === worker) idle.delete(script);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle.set(script, { worker, timer });
}

function inWorker(script: string, job: PageJob, signal: AbortSignal, timeoutMs: number): Promise<PageMarkdown | SearchPage> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const worker = take(script);
  worker.ref();
  const what = job.kind === 'markdown' ? 'Converting the page to Markdown' : 'Reading the search results page';
  const fallback = job.kind === 'markdown' ? ' Fetch it with raw: true to read the HTML.' : '';
  return new Promise((resolve, reject) => {
    const seconds = Math.round(timeoutMs / 100) / 10;
    const timer = setTimeout(() => fail(new ToolError('timeout', `${what} took longer than ${seconds} s (peon.web.timeoutSeconds), so it was stopped.${fallback}`)), timeoutMs);
    const onAbort = (): void => fail(signal.reason);
    const onMessage = (reply: JobReply): void => {
      settle();
      putBack(script, worker);
      if (reply.ok) resolve(reply.value);
      else reject(new ToolError('io_error', `${what} failed: ${reply.message}.${fallback}`));
    };
    const onError = (error: Error): void => {
      const code = (error as NodeJS.ErrnoException).code;
      fail(code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ToolError('too_large', `${what} needed more than ${WORKER_HEAP_MB} MB of memory, so it was stopped.${fallback}`) : new ToolError('io_error', `${what} failed: ${error.message}.${fallback}`));
    };
    const onExit = (): void => fail(new ToolError('io_error', `${what} stopped unexpectedly.${fallback}`));
    const settle = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    };
    const fail = (reason: unknown): void => {
      settle();
      void worker.terminate();
      reject(reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job);
  });
}
