// Model output's code blocks, lists, task lists and file names, in the built webview in
// Chromium under the extension's CSP (test/webview/standalonePage.mjs): what a person
// sees and what the buttons post to the host.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../vscode/browser.mjs';
import { openStandaloneWebview } from '../../webview/standalonePage.mjs';
import { inertReport } from './inert';

const configured = { state: 'configured', provider: 'anthropic', model: 'claude-test' } as const;
const TS = 'export function add(a: number, b: number): number {\n  return a + b + 42; // the answer\n}\nconst s = "str";';
const LONG = `const line = "${'x'.repeat(400)}";`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser({ showScrollbars: true });
}, 60_000);
afterAll(async () => browser?.close());

type View = Awaited<ReturnType<typeof openStandaloneWebview>>;
/** The page's globals this file uses (it compiles without the DOM library): the highlighter, and a log of its calls. */
type PageWindow = { peonHighlight: (code: string, language: string) => { text: string; style: string }[]; calls: string[] };

async function open(text: string, width = 300): Promise<View> {
  const view = await openStandaloneWebview(browser, { width });
  await view.send({ type: 'init', entries: [{ kind: 'assistant', id: 'a1', text }], model: configured });
  await view.page.locator('.message.assistant .markdown').waitFor();
  return view;
}

const posted = async (view: View, type: string) => ((await view.posted()) as { type: string }[]).filter((m) => m.type === type);

describe('code blocks', () => {
  test('a block shows its language, Copy and Insert at Cursor; both hand the exact code to the host', async () => {
    const view = await open(`Here:\n\n\`\`\`ts\n${TS}\n\`\`\``);
    const block = view.page.getByRole('group', { name: 'Code block, ts' });
    expect(await block.locator('.code-lang').textContent()).toBe('ts');
    expect(await block.locator('pre').textContent()).toBe(TS);

    await block.getByRole('button', { name: 'Copy' }).click();
    expect(await posted(view, 'copyText')).toEqual([{ type: 'copyText', text: TS }]);
    await block.getByRole('button', { name: 'Copied' }).waitFor();
    await block.getByRole('button', { name: 'Insert at Cursor' }).click();
    expect(await posted(view, 'insertAtCursor')).toEqual([{ type: 'insertAtCursor', text: TS }]);
    expect(await block.getByRole('button', { name: 'Insert at Cursor' }).innerText()).toBe('Insert at Cursor');
    // About 200 px wide, the button reads "Insert" so the language keeps its room; its name stays whole.
    await view.page.setViewportSize({ width: 200, height: 800 });
    expect(await block.getByRole('button', { name: 'Insert at Cursor' }).innerText()).toBe('Insert');
    expect(await block.locator('.code-lang').evaluate((label: { scrollWidth: number; clientWidth: number }) => label.scrollWidth <= label.clientWidth)).toBe(true);
    await view.page.close();
  });

  test('the highlighter loads on first need, from the extension only, and colours the block with elements', async () => {
    const view = await open('No code here, only `inline` code.\n\n```text\nplain output\n```');
    // Neither prose nor a block in a language it does not colour loads it.
    await view.page.locator('.code-block').waitFor();
    expect(view.bundleRequests()).not.toContain('highlight.js');

    await view.send({ type: 'append', entry: { kind: 'assistant', id: 'a2', text: `\`\`\`ts\n${TS}\n\`\`\`` } });
    const block = view.page.locator('.message.assistant').nth(1).locator('pre');
    await block.locator('.hl-keyword').first().waitFor();
    const colours = await block.evaluate((pre) =>
      Array.from(pre.querySelectorAll('span[class^="hl-"]'), (s: { className: string; textContent: string }) => `${s.className.split(' ')[0]}:${s.textContent}`),
    );
    expect(colours).toEqual(expect.arrayContaining(['hl-keyword:export', 'hl-keyword:function', 'hl-type:number', 'hl-number:42', 'hl-comment:// the answer', 'hl-string:"str"']));
    // The code reads the same: spans only, and the text kept exactly.
    expect(await block.textContent()).toBe(TS);
    expect(await block.locator('*:not(code):not(span)').count()).toBe(0);
    expect(view.bundleRequests().filter((f: string) => f === 'highlight.js')).toHaveLength(1);
    expect(view.extraRequests()).toEqual([]);
    expect(view.violations).toEqual([]);
    await view.page.close();
  });

  test('every language the fence table names colours something, and none throws', async () => {
    const view = await open('```js\nlet a = 1;\n```');
    await view.page.locator('.hl-keyword').first().waitFor();
    const samples: Record<string, string> = {
      javascript: 'const a = 1; // c',
      typescript: 'let a: string = "x";',
      json: '{"a": 1, "b": true}',
      python: 'def f(x):\n    return "s"  # c',
      css: 'a { color: red; }',
      scss: '$x: 1px; a { b: $x; }',
      less: '@x: 1px; a { b: @x; }',
      html: '<div class="a">x</div>',
      xml: '<?xml version="1.0"?><a b="c"/>',
      rust: 'fn main() { let x = 1; }',
      go: 'func main() { x := "s" }',
      java: 'public class A { int x = 1; }',
      cpp: '#include <x>\nint main() { return 0; }',
      csharp: 'public class A { string s = "x"; }',
      kotlin: 'fun main() { val x = 1 }',
      yaml: 'a: 1 # c',
      toml: '[a]\nb = "c"',
      shell: 'echo "hi" # c',
      powershell: 'Write-Host "hi"',
      diff: '@@ -1 +1 @@\n-a\n+b',
      sql: 'SELECT * FROM t WHERE a = 1;',
      dockerfile: 'FROM node:20\nRUN npm ci',
      ruby: 'def f; "s"; end',
      swift: 'let x = "s"',
    };
    const coloured = await view.page.evaluate(
      (all) => {
        const page = globalThis as unknown as PageWindow;
        return Object.fromEntries(Object.entries(all).map(([language, code]) => [language, page.peonHighlight(code, language).some((span) => span.style !== '')]));
      },
      samples,
    );
    expect(coloured).toEqual(Object.fromEntries(Object.keys(samples).map((language) => [language, true])));
    await view.page.close();
  });

  test('a block streamed token by token is coloured once, when its closing fence arrives', async () => {
    const view = await open('```js\nlet warm = 1;\n```');
    await view.page.locator('.hl-keyword').first().waitFor();
    // Count what the highlighter is asked from now on (a new block takes it as loaded).
    await view.page.evaluate(() => {
      const page = globalThis as unknown as PageWindow;
      const real = page.peonHighlight;
      page.calls = [];
      page.peonHighlight = (code, language) => {
        page.calls.push(code);
        return real(code, language);
      };
    });
    const text = `Now:\n\n\`\`\`ts\n${TS}\n\`\`\`\n\nDone.`;
    const cut = text.indexOf('\n```\n\nDone');
    await view.send({ type: 'append', entry: { kind: 'assistant', id: 'a2', text: '' } });
    await view.send([...text.slice(0, cut)].map((ch) => ({ type: 'delta', id: 'a2', text: ch })));
    const streamed = view.page.locator('.message.assistant').nth(1);
    await streamed.locator('pre', { hasText: 'const s = "str";' }).waitFor();
    expect(await streamed.locator('[class^="hl-"]').count()).toBe(0);
    await view.send([...text.slice(cut)].map((ch) => ({ type: 'delta', id: 'a2', text: ch })));
    await streamed.locator('.hl-keyword').first().waitFor();
    await streamed.getByText('Done.').waitFor();
    expect(await view.page.evaluate(() => (globalThis as unknown as PageWindow).calls)).toEqual([TS]);
    await view.page.close();
  });

  test('hostile code, language and file names stay text: nothing runs, loads or becomes an element', async () => {
    const leak = 'http://127.0.0.1:9/leak';
    const view = await open(
      [
        `\`\`\`html <img src="${leak}-info" onerror="window.__pwned=1">`,
        `<script>window.__pwned = 2</script><img src="${leak}-img" onerror="window.__pwned=3">`,
        '```',
        '',
        '```js',
        `"</span><svg onload="window.__pwned=4"></svg>"; fetch("${leak}-fetch")`,
        '```',
        '',
        `[open](../../keys/id_rsa.pem) \`javascript:alert(1).js\` <img src="${leak}-inline">`,
      ].join('\n'),
    );
    await view.page.locator('pre .hl-string').first().waitFor();
    const found = await inertReport(view.page, '.transcript');
    expect(found.pwned).toBeUndefined();
    expect(found.elements).toEqual([]);
    expect(found.links).toEqual([]);
    expect(found.text).toContain('<script>window.__pwned = 2</script>');
    expect(await view.page.locator('.code-lang').first().textContent()).toBe('html');
    // A relative link that names a file only asks the host, which opens workspace files alone.
    expect(await view.page.locator('button.md-file').allTextContents()).toEqual(['open']);
    expect(view.extraRequests()).toEqual([]);
    expect(view.violations).toEqual([]);
    await view.page.close();
  });

  test('a long line scrolls inside its block, with a scrollbar, and the panel does not widen', async () => {
    const view = await open(`\`\`\`js\n${LONG}\n\`\`\``);
    const pre = view.page.locator('pre.code-body');
    await pre.locator('.hl-keyword').first().waitFor();
    const box = await pre.evaluate((el) => {
      el.scrollLeft = 200;
      return { scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, scrollLeft: el.scrollLeft, scrollbar: el.offsetHeight - el.clientHeight, page: el.ownerDocument.documentElement.scrollWidth };
    });
    expect(box.scrollWidth).toBeGreaterThan(box.clientWidth * 2);
    expect(box.scrollLeft).toBe(200);
    expect(box.scrollbar).toBeGreaterThan(0);
    expect(box.page).toBeLessThanOrEqual(300);
    await view.page.close();
  });
});

/** How wide `text` is in `selector`'s font, and that element's left padding, in px. */
async function markerRoom(page: Page, selector: string, text: string): Promise<{ needed: number; padding: number }> {
  return page.locator(selector).first().evaluate((el, marker) => {
    const probe = el.ownerDocument.createElement('span');
    probe.textContent = marker;
    el.appendChild(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    return { needed, padding: parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).paddingLeft) };
  }, text);
}

describe('lists', () => {
  test('an ordered list of 27 items numbers every item in full', async () => {
    const items = Array.from({ length: 27 }, (_, i) => `${i + 1}. Line item number ${i + 1}: the rule at position ${i + 1} is compiled and cached.`);
    const view = await open(items.join('\n'));
    const ol = view.page.locator('.markdown ol');
    expect(await ol.locator('> li').count()).toBe(27);
    const room = await markerRoom(view.page, '.markdown ol', '27.\u00a0');
    expect(room.padding).toBeGreaterThan(room.needed);
    // 100 and up get more room.
    await view.send({ type: 'init', entries: [{ kind: 'assistant', id: 'a1', text: '99. a\n100. b\n101. c' }], model: configured });
    await view.page.locator('.markdown ol', { hasText: 'c' }).waitFor();
    const wide = await markerRoom(view.page, '.markdown ol', '101.\u00a0');
    expect(wide.padding).toBeGreaterThan(wide.needed);
    await view.page.close();
  });

  test('a task list shows disabled boxes, ticked as written, on the line of their text', async () => {
    const view = await open('Plan:\n\n- [ ] write the test\n- [x] fix the **bug**\n\nLoose:\n\n- [x] one\n\n- [ ] two');
    const boxes = view.page.locator('.markdown li input[type="checkbox"]');
    expect(await boxes.count()).toBe(4);
    expect(await boxes.evaluateAll((all) => all.map((b) => `${(b as unknown as { checked: boolean }).checked}:${(b as unknown as { disabled: boolean }).disabled}`))).toEqual(['false:true', 'true:true', 'true:true', 'false:true']);
    const text = await view.page.locator('.markdown').textContent();
    expect(text).not.toContain('[ ]');
    expect(text).not.toContain('[x]');
    // Box and text share a line: the box's middle is within the first line of the item's text.
    const rows = await view.page.locator('.markdown li').evaluateAll((all) =>
      all.map((li) => {
        const box = li.querySelector('input')!.getBoundingClientRect();
        // The first text node with words in it (SHOW_TEXT = 4).
        const walker = li.ownerDocument.createTreeWalker(li, 4);
        let text = walker.nextNode();
        while (text && !text.textContent?.trim()) text = walker.nextNode();
        const range = li.ownerDocument.createRange();
        range.selectNodeContents(text!);
        const line = range.getClientRects()[0]!;
        const middle = (box.top + box.bottom) / 2;
        return middle > line.top && middle < line.bottom && box.right <= line.left;
      }),
    );
    expect(rows).toEqual([true, true, true, true]);
    await view.page.close();
  });
});

describe('file names in answers', () => {
  test('`file:line`, a path and a link to a file open it through the host; other text and links stay as they were', async () => {
    const view = await open('See `src/app.ts:42` and lib/util.js, or [the config](config/settings.json#L3). Node.js is not a file; [x](javascript:alert(1)) stays inert.');
    const files = view.page.locator('.markdown button.md-file');
    expect(await files.allTextContents()).toEqual(['src/app.ts:42', 'lib/util.js', 'the config']);
    for (const name of ['src/app.ts:42', 'lib/util.js', 'the config']) await view.page.getByRole('button', { name, exact: true }).click();
    expect(await posted(view, 'openFile')).toEqual([
      { type: 'openFile', path: 'src/app.ts', line: 42 },
      { type: 'openFile', path: 'lib/util.js' },
      { type: 'openFile', path: 'config/settings.json', line: 3 },
    ]);
    expect(await view.page.locator('.markdown a').count()).toBe(0);
    expect(await view.page.locator('.markdown .md-inert').textContent()).toBe('x');
    expect(view.extraRequests()).toEqual([]);
    await view.page.close();
  });
});
