// B10: streaming 10,000 tokens into one message of the webview (headless Chromium,
// production bundle), against a page that only appends each token's text to a div.
// Both receive the same tokens as window messages, 50 per task as a fast model sends
// them. Measured with Chromium's own counters (CDP Performance.getMetrics): main-thread
// task time per token, and layouts. Budget: ≤ 80 µs/token; no layout per token.
import { launchBrowser } from '../../test/vscode/browser.mjs';
import { openStandaloneWebview } from '../../test/webview/standalonePage.mjs';
import { median } from '../measure.mjs';
import { buildProduction, tokens } from '../webviewHarness.mjs';

export const id = 'B10';
export const title = 'webview: stream 10,000 tokens into one message vs appending text only';

const COUNT = 10_000;
const model = { state: 'configured', provider: 'anthropic', model: 'bench' };

const APPEND_ONLY = `<!DOCTYPE html><html><body><div id="out"></div><script>
const text = document.getElementById('out').appendChild(document.createTextNode(''));
window.addEventListener('message', (e) => { if (e.data.type === 'delta') text.appendData(e.data.text); });
</script></body></html>`;

/** Sends the tokens as `delta` messages in bursts, then waits until `done` holds in the page. */
async function stream(page, list, done, end) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const before = await metric();
  await page.evaluate(async (all) => {
    for (let i = 0; i < all.length; i += 50) {
      for (const text of all.slice(i, i + 50)) window.postMessage({ type: 'delta', id: 'a1', text }, '*');
      await new Promise((resolve) => setTimeout(resolve, 4));
    }
  }, list);
  await page.waitForFunction(done, end);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const after = await metric();
  await cdp.detach();
  return { usPerToken: ((after.TaskDuration - before.TaskDuration) * 1e6) / list.length, layouts: after.LayoutCount - before.LayoutCount };
}

export async function run() {
  buildProduction();
  const list = [...tokens(COUNT - 1), ' the-end'];
  const last = 'the-end';
  const browser = await launchBrowser();
  try {
    const reference = async () => {
      const page = await browser.newPage();
      await page.setContent(APPEND_ONLY);
      const result = await stream(page, list, (end) => document.getElementById('out').textContent.endsWith(end), last);
      await page.close();
      return result;
    };
    const measured = async () => {
      const entries = [{ kind: 'user', id: 'u1', text: 'Explain.' }, { kind: 'assistant', id: 'a1', text: '' }];
      const view = await openStandaloneWebview(browser, { init: { type: 'init', entries, model } });
      await view.page.waitForFunction(() => window.__peonPainted !== undefined);
      const result = await stream(view.page, list, (end) => document.querySelector('.message.assistant')?.textContent.trimEnd().endsWith(end), last);
      await view.page.close();
      return result;
    };
    await reference();
    await measured();
    const refs = [];
    const ours = [];
    for (let i = 0; i < 5; i++) {
      refs.push(await reference());
      ours.push(await measured());
    }
    const ref = median(refs.map((r) => r.usPerToken));
    const us = median(ours.map((r) => r.usPerToken));
    const layouts = Math.max(...ours.map((r) => r.layouts));
    return {
      reference: `${ref.toFixed(1)} µs/token`,
      measured: `${us.toFixed(1)} µs/token`,
      ratio: us / ref,
      budget: '≤ 80 µs/token; no layout per token',
      pass: us <= 80 && layouts < COUNT / 50,
      note: `${layouts} layouts for ${COUNT.toLocaleString('en')} tokens`,
    };
  } finally {
    await browser.close();
  }
}
