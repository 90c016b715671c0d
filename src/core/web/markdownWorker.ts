// The worker thread the web tools parse pages in (dist/markdownWorker.js): a hostile
// page can make an HTML parser or a regular expression take seconds or hours, and here
// that costs only this thread, which the deadline and Stop terminate — never the
// extension host or the CLI's event loop. It converts pages to Markdown (webfetch) and
// reads search results (websearch).
import { parentPort } from 'node:worker_threads';
import { htmlToMarkdown, type PageMarkdown } from './htmlToMarkdown';
import { parseSearchPage, type SearchPage } from './searchResults';

export type PageJob = { readonly kind: 'markdown'; readonly html: string; readonly base: string } | { readonly kind: 'search'; readonly html: string; readonly base: string; readonly max: number };

export type JobReply = { readonly ok: true; readonly value: PageMarkdown | SearchPage } | { readonly ok: false; readonly message: string };

/** What a job computes, the same in the worker and (without one) in the calling thread. */
export function runJob(job: PageJob): PageMarkdown | SearchPage {
  return job.kind === 'markdown' ? htmlToMarkdown(job.html, new URL(job.base)) : parseSearchPage(job.html, job.base, job.max);
}

parentPort?.on('message', (job: PageJob) => {
  let reply: JobReply;
  try {
    reply = { ok: true, value: runJob(job) };
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
