// HTML → Markdown with a deadline that holds and a Stop that works whatever the page:
// the conversion runs in a worker thread (markdownWorker.ts) with bounded memory, kept
// warm between calls and terminated when the deadline passes, Stop is pressed, or its
// memory runs out. Without a worker script (a test of the conversion itself) it runs in
// this thread.
import { Worker } from 'node:worker_threads';
import { ToolError } from '../tools/toolError';
import { htmlToMarkdown, type PageMarkdown } from './htmlToMarkdown';
import type { ConvertJob, ConvertReply } from './markdownWorker';

/** The worker's heap: a 10 MiB page converts in well under this; a bomb hits it and only the worker dies. */
const WORKER_HEAP_MB = 1024;

export type PageConverter = (html: string, base: URL, signal: AbortSignal, timeoutMs: number) => Promise<PageMarkdown>;

export const inThisThread: PageConverter = async (html, base) => htmlToMarkdown(html, base);

const idle = new Map<string, Worker>();

/** A converter on the worker script at `script` (dist/markdownWorker.js beside the bundle). */
export function inWorker(script: string): PageConverter {
  return (html, base, signal, timeoutMs) => {
    if (signal.aborted) return Promise.reject(signal.reason);
    const worker = idle.get(script) ?? new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    idle.delete(script);
    // A waiting worker must not keep the CLI alive; one at work is waited for.
    worker.ref();
    return new Promise<PageMarkdown>((resolve, reject) => {
      const seconds = Math.round(timeoutMs / 100) / 10;
      const timer = setTimeout(() => fail(new ToolError('timeout', `Converting the page to Markdown took longer than ${seconds} s (peon.web.timeoutSeconds), so it was stopped. Fetch it with raw: true to read the HTML.`)), timeoutMs);
      const onAbort = (): void => fail(signal.reason);
      const onMessage = (reply: ConvertReply): void => {
        settle();
        worker.unref();
        if (idle.has(script)) void worker.terminate();
        else {
          idle.set(script, worker);
          worker.once('exit', () => idle.get(script) === worker && idle.delete(script));
        }
        if (reply.ok) resolve({ title: reply.title, markdown: reply.markdown });
        else reject(new ToolError('io_error', `The page could not be converted to Markdown: ${reply.message}. Fetch it with raw: true to read the HTML.`));
      };
      const onError = (error: Error): void => {
        const code = (error as NodeJS.ErrnoException).code;
        fail(
          code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ToolError('too_large', `Converting the page to Markdown needed more than ${WORKER_HEAP_MB} MB of memory, so it was stopped. Fetch it with raw: true to read the HTML.`)
            : new ToolError('io_error', `The page could not be converted to Markdown: ${error.message}`),
        );
      };
      const onExit = (): void => fail(new ToolError('io_error', 'The Markdown converter stopped unexpectedly. Fetch the page with raw: true to read the HTML.'));
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
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      worker.postMessage({ html, base: base.href } satisfies ConvertJob);
    });
  };
}
