// The built webview (dist/webview) in headless Chromium, outside VS Code: the same
// HTML shell and CSP as the extension's (src/extension/webviewHtml.ts), served from a
// routed origin so no request can leave the page. A stand-in `acquireVsCodeApi`
// records what the webview posts. Used by test/unit/webview and bench B9–B11.
import fs from 'node:fs';
import path from 'node:path';
import { loadTs } from '../../scripts/loadTs.mjs';
import { repoRoot } from '../../scripts/paths.mjs';

const ORIGIN = 'https://peon-webview.test';
/** What dist/webview serves, by file name: its content type (the highlighter is added on first need). */
const BUNDLE = { 'main.js': 'text/javascript', 'main.css': 'text/css', 'codicon.ttf': 'font/ttf', 'highlight.js': 'text/javascript' };
/** The bundle file `url` names, or undefined. */
const bundled = (url) => (url.startsWith(`${ORIGIN}/`) && Object.hasOwn(BUNDLE, url.slice(ORIGIN.length + 1)) ? url.slice(ORIGIN.length + 1) : undefined);
const { renderWebviewHtml } = await loadTs('src/extension/webviewHtml.ts');

// With an `init` message, the stand-in answers the webview's `ready` with it at once,
// as the extension does, and notes when the frame after it was rendered
// (`__peonPainted`, ms since navigation start): the first paint of a conversation.
const stub = (init) => `window.__peonPosted = [];
const init = ${JSON.stringify(init ?? null).replace(/</g, '\\u003c')};
window.acquireVsCodeApi = () => ({
  postMessage: (m) => {
    window.__peonPosted.push(m);
    if (m.type !== 'ready' || !init) return;
    window.addEventListener('message', () => queueMicrotask(() => requestAnimationFrame(() => requestAnimationFrame(() => (window.__peonPainted ??= performance.now())))), { once: true });
    window.postMessage(init, '*');
  },
  getState: () => undefined,
  setState: () => {},
});`;

/**
 * Opens the webview in a new page of `browser`. Every request the page makes is
 * recorded in `requests`; only the bundle files are answered, everything else
 * is aborted (and stays in the record, so a test can assert there was none).
 */
export async function openStandaloneWebview(browser, { width = 420, height = 800, init } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  const requests = [];
  const violations = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const nonce = 'standalone-nonce';
  const html = renderWebviewHtml({ cspSource: ORIGIN, nonce, scriptUri: `${ORIGIN}/main.js`, styleUri: `${ORIGIN}/main.css` })
    .replace('<script nonce=', () => `<script nonce="${nonce}">${stub(init)}</script>\n<script nonce=`);
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    const file = bundled(url);
    if (url === `${ORIGIN}/`) return route.fulfill({ contentType: 'text/html', body: html });
    if (file) return route.fulfill({ contentType: BUNDLE[file], body: fs.readFileSync(path.join(repoRoot, 'dist', 'webview', file)) });
    return route.abort();
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => window.__peonPosted.some((m) => m.type === 'ready'));
  return {
    page,
    /** Every URL requested besides the page and its bundle files. */
    extraRequests: () => requests.filter((url) => url !== `${ORIGIN}/` && !bundled(url)),
    /** The bundle files requested, by name, in order (main.js, main.css, then the font and highlight.js when needed). */
    bundleRequests: () => requests.map(bundled).filter((name) => name !== undefined),
    violations,
    /** Starts counting DOM mutations under `selector`; `mutations()` reads the count. */
    countMutations: (selector) =>
      page.evaluate((sel) => {
        window.__peonMutations = 0;
        new MutationObserver((records) => (window.__peonMutations += records.length)).observe(document.querySelector(sel), { subtree: true, childList: true, characterData: true });
      }, selector),
    mutations: () => page.evaluate(() => window.__peonMutations),
    /** What the webview posted to the host, in order. */
    posted: () => page.evaluate(() => window.__peonPosted),
    /** Delivers host messages the way VS Code does: as window `message` events. */
    send: (messages) => page.evaluate((list) => list.forEach((m) => window.postMessage(m, '*')), [messages].flat()),
  };
}
