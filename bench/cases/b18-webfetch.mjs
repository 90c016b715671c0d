// B18: webfetch of a 2 MB HTML page from a loopback server, to Markdown, through the
// whole gate (egress check, request, capped read, decoding, cleaning, turndown) against
// turndown alone converting the same HTML in process, with the same options and GFM
// plugin. Budget: ≤ 1.3×.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { repoRoot } from '../../scripts/paths.mjs';
import { ratioRow, timeAsync } from '../measure.mjs';
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
  const session = toolSession(dir, { settings: { 'peon.web.allowedHosts': [`127.0.0.1:${port}`] } });
  const url = `http://127.0.0.1:${port}/big.html`;
  try {
    const measured = await timeAsync(() => session.call('webfetch', { url }), { runs: 9 });
    const reference = await timeAsync(
      async () => {
        const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_', hr: '---' });
        service.use(gfm);
        service.turndown(page);
      },
      { runs: 9 },
    );
    return ratioRow(measured, reference, 1.3, `${(page.length / 1024 / 1024).toFixed(1)} MB page`);
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
