// B18: webfetch of a 2 MB HTML page from a loopback server, to Markdown, through the
// whole gate (egress check, request, capped read, decoding, and the conversion —
// cleaning and turndown — in the product's worker thread, dist/markdownWorker.js, built
// first) against turndown alone converting the same HTML in this thread, with the same
// options and GFM plugin. Budget: ≤ 1.3×.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { repoRoot } from '../../scripts/paths.mjs';
import { median, ratioRow } from '../measure.mjs';
import { toolSession } from '../toolHarness.mjs';

export const id = 'B18';
export const title = 'webfetch of a 2 MB HTML page from loopback, to Markdown, vs turndown alone on the same HTML';

/** The recorded article's body repeated to 2 MB, inside the page's own head and scripts. */
function bigPage() {
  const article = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'web', 'article-1.html'), 'utf8');
  const open = article.indexOf('<body');
  const close = article.lastIndexOf('</body>');
  const body = article.slice(article.indexOf('>', open) + 1, close);
  const copies = Math.ceil((2 * 1024 * 1024 - article.length) / body.length);
  return `${article.slice(0, close)}${body.repeat(copies)}${article.slice(close)}`;
}

export async function run() {
  const page = bigPage();
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b18-'));
  execFileSync(process.execPath, ['esbuild.mjs', '--production', '--quiet'], { cwd: repoRoot, stdio: 'inherit' });
  const markdownWorker = path.join(repoRoot, 'dist', 'markdownWorker.js');
  const session = toolSession(dir, { settings: { 'peon.web.allowedHosts': [`127.0.0.1:${port}`] }, web: { markdownWorker } });
  const url = `http://127.0.0.1:${port}/big.html`;
  const convertAlone = () => {
    const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_', hr: '---' });
    service.use(gfm);
    service.turndown(page);
  };
  try {
    // Interleaved, so the machine's drift (GC, other load) falls on both alike; the ratio
    // is the median of each round's ratio. Two warm-up rounds.
    const times = { measured: [], reference: [] };
    for (let round = 0; round < 23; round++) {
      for (const [name, run] of [['measured', () => session.call('webfetch', { url })], ['reference', convertAlone]]) {
        const started = process.hrtime.bigint();
        await run();
        if (round >= 2) times[name].push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    const ratio = median(times.measured.map((m, i) => m / times.reference[i]));
    const row = ratioRow(median(times.measured), median(times.reference), 1.3, `${(page.length / 1024 / 1024).toFixed(1)} MB page; ratio: median of ${times.measured.length} paired rounds`);
    return { ...row, ratio, pass: ratio <= 1.3 };
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
