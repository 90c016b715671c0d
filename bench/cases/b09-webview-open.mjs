// B9: opening a 2,000-message conversation in the webview (headless Chromium, the
// production bundle, the extension's CSP), against the same webview opening an empty
// conversation. Measured: ms from navigation start to the frame after the
// conversation rendered. Budget: ≤ 2.5× and ≤ 2,000 DOM nodes, counted once the code
// blocks in view are highlighted (the highlighter loads after the first paint).
import { launchBrowser } from '../../test/vscode/browser.mjs';
import { openStandaloneWebview } from '../../test/webview/standalonePage.mjs';
import { median } from '../measure.mjs';
import { buildProduction, conversation } from '../webviewHarness.mjs';

export const id = 'B9';
export const title = 'webview: open a 2,000-message conversation vs an empty one (first paint)';

const model = { state: 'configured', provider: 'anthropic', model: 'bench' };

async function firstPaint(browser, entries) {
  const view = await openStandaloneWebview(browser, { init: { type: 'init', entries, model } });
  await view.page.waitForFunction(() => window.__peonPainted !== undefined);
  const painted = await view.page.evaluate(() => window.__peonPainted);
  let highlighted;
  if (entries.length > 0) {
    await view.page.waitForFunction(() => document.querySelector('.code-block .hl-keyword') !== null);
    highlighted = await view.page.evaluate(() => performance.now());
  }
  const nodes = await view.page.locator('*').count();
  await view.page.close();
  return { painted, nodes, highlighted };
}

export async function run() {
  buildProduction();
  const browser = await launchBrowser();
  try {
    const entries = conversation(2000);
    const runs = { empty: [], full: [], highlighted: [], nodes: 0 };
    await firstPaint(browser, []);
    await firstPaint(browser, entries);
    for (let i = 0; i < 7; i++) {
      runs.empty.push((await firstPaint(browser, [])).painted);
      const full = await firstPaint(browser, entries);
      runs.full.push(full.painted);
      runs.highlighted.push(full.highlighted);
      runs.nodes = Math.max(runs.nodes, full.nodes);
    }
    const reference = median(runs.empty);
    const measured = median(runs.full);
    const ratio = measured / reference;
    return {
      reference: `${reference.toFixed(1)} ms`,
      measured: `${measured.toFixed(1)} ms`,
      ratio,
      budget: '≤ 2.5×; ≤ 2,000 DOM nodes',
      pass: ratio <= 2.5 && runs.nodes <= 2000,
      note: `${runs.nodes} DOM nodes with the code blocks in view highlighted (at ${median(runs.highlighted).toFixed(0)} ms)`,
    };
  } finally {
    await browser.close();
  }
}
