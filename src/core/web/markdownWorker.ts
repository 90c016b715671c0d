// The worker thread webfetch converts pages in (dist/markdownWorker.js): a hostile page
// can make an HTML parser or a regular expression take seconds or hours, and here that
// costs only this thread, which the deadline and Stop terminate — never the extension
// host or the CLI's event loop.
import { parentPort } from 'node:worker_threads';
import { htmlToMarkdown } from './htmlToMarkdown';

export interface ConvertJob {
  readonly html: string;
  readonly base: string;
}

export type ConvertReply = { readonly ok: true; readonly title: string; readonly markdown: string } | { readonly ok: false; readonly message: string };

parentPort?.on('message', (job: ConvertJob) => {
  let reply: ConvertReply;
  try {
    reply = { ok: true, ...htmlToMarkdown(job.html, new URL(job.base)) };
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
