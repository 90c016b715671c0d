// The built webview in headless Chromium, with the extension's own CSP: what model
// output turns into on screen, and what it can never do (SECURITY.md, webview cases).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../vscode/browser.mjs';
import { openStandaloneWebview } from '../../webview/standalonePage.mjs';
import { inertReport } from './inert';

const configured = { state: 'configured', provider: 'anthropic', model: 'claude-test' } as const;
const LEAK = 'http://127.0.0.1:9/leak?secret=AKIA';
const HOSTILE = [
  `![chart](${LEAK}-md-image)`,
  `<img src="${LEAK}-img" onerror="window.__pwned = 1">`,
  `<script>window.__pwned = 2</script>`,
  `<svg onload="window.__pwned = 3"><image href="${LEAK}-svg"/></svg>`,
  `[click](javascript:window.__pwned=4) [cmd](command:workbench.action.quit) [uri](vscode://x/y)`,
  `<iframe src="${LEAK}-iframe"></iframe><link rel=stylesheet href="${LEAK}-css"><a href="${LEAK}-a" style="background:url(${LEAK}-style)">x</a>`,
  `<video poster="${LEAK}-video"></video><object data="${LEAK}-obj"></object>`,
].join('\n\n');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

async function hostileIsInert(view: Awaited<ReturnType<typeof openStandaloneWebview>>): Promise<void> {
  const found = await inertReport(view.page, '.transcript');
  expect(found.pwned).toBeUndefined();
  expect(found.elements).toEqual([]);
  expect(found.links).toEqual([]);
  // The hostile markup is shown as text, so the user sees what the model tried.
  expect(found.text).toContain('<script>window.__pwned = 2</script>');
  expect(found.text).toContain('[image: chart]');
  expect(view.extraRequests()).toEqual([]);
  expect(view.violations).toEqual([]);
}

describe('model output in the panel', () => {
  test('Markdown renders: headings, emphasis, code, lists, tables, safe links', async () => {
    const view = await openStandaloneWebview(browser);
    const text = '# Plan\n\nUse **bold**, _em_ and `a < b` &amp; more.\n\n- one\n- two\n\n| k | v |\n|:-|-:|\n| a | 1 |\n\n```ts\nconst x = 1;\n```\n\nSee [the docs](https://example.com/docs).';
    await view.send({ type: 'init', entries: [{ kind: 'assistant', id: 'a1', text }], model: configured });
    const shape = await view.page.locator('.message.assistant .markdown').evaluate((md) => {
      return {
        heading: md.querySelector('h3')?.textContent,
        strong: md.querySelector('strong')?.textContent,
        em: md.querySelector('em')?.textContent,
        code: md.querySelector('p code')?.textContent,
        amp: md.querySelector('p')?.textContent,
        items: Array.from(md.querySelectorAll('ul li'), (li: { textContent: string | null }) => li.textContent),
        cells: Array.from(md.querySelectorAll('td'), (td: { textContent: string | null; className: string }) => `${td.textContent}:${td.className}`),
        block: md.querySelector('pre code')?.textContent,
        link: md.querySelector('a')?.getAttribute('href'),
      };
    });
    expect(shape).toEqual({
      heading: 'Plan',
      strong: 'bold',
      em: 'em',
      code: 'a < b',
      amp: 'Use bold, em and a < b & more.',
      items: ['one', 'two'],
      cells: ['a:md-left', '1:md-right'],
      block: 'const x = 1;',
      link: 'https://example.com/docs',
    });
    await view.page.close();
  }, 30_000);

  test('hostile output streamed live is inert: no element, no script, no request', async () => {
    const view = await openStandaloneWebview(browser);
    await view.send([
      { type: 'init', entries: [], model: configured },
      { type: 'append', entry: { kind: 'assistant', id: 'a1', text: '' } },
      ...[...HOSTILE].map((ch) => ({ type: 'delta', id: 'a1', text: ch })),
      { type: 'busy', busy: false },
    ]);
    await view.page.locator('.transcript', { hasText: '[or this]' }).or(view.page.locator('.transcript', { hasText: 'cmd' })).waitFor();
    await hostileIsInert(view);
    await view.page.close();
  }, 30_000);

  test('hostile output restored from history is inert too', async () => {
    const view = await openStandaloneWebview(browser);
    await view.send({ type: 'init', entries: [{ kind: 'user', id: 'u1', text: HOSTILE }, { kind: 'assistant', id: 'a1', text: HOSTILE }, { kind: 'summary', id: 's1', text: HOSTILE }], model: configured });
    await view.page.waitForSelector('.message.assistant .markdown');
    await view.page.locator('details.summary summary').click();
    await hostileIsInert(view);
    await view.page.close();
  }, 30_000);

  test('streamed deltas arrive whole, in order, batched into few renders', async () => {
    const view = await openStandaloneWebview(browser);
    const words = Array.from({ length: 2000 }, (_, i) => `w${i} `);
    await view.send([{ type: 'init', entries: [], model: configured }, { type: 'append', entry: { kind: 'assistant', id: 'a1', text: '' } }]);
    await view.countMutations('.transcript');
    await view.send(words.map((text) => ({ type: 'delta', id: 'a1', text })));
    await view.page.locator('.message.assistant', { hasText: 'w1999' }).waitFor();
    const seen = { text: await view.page.locator('.message.assistant').textContent(), mutations: await view.mutations() };
    expect(seen.text?.trim()).toBe(words.join('').trim());
    // One batch (or a few), never a render per token.
    expect(seen.mutations).toBeLessThan(50);
    await view.page.close();
  }, 30_000);

  test('a 2,000-message conversation is virtualised: few nodes, pinned to the end, the start reachable', async () => {
    const view = await openStandaloneWebview(browser);
    const entries = Array.from({ length: 2000 }, (_, i) =>
      i % 2 === 0 ? { kind: 'user', id: `u${i}`, text: `question ${i}` } : { kind: 'assistant', id: `a${i}`, text: `**answer** ${i}\n\n- a point\n- another` },
    );
    await view.send({ type: 'init', entries, model: configured });
    await view.page.locator('.message.assistant', { hasText: 'answer 1999' }).waitFor();
    const nodes = await view.page.locator('*').count();
    expect(nodes).toBeLessThan(2000);
    expect(await view.page.locator('.transcript .row').count()).toBeLessThan(100);
    // Scroll to the very top: the first message is rendered there.
    const first = view.page.locator('.message.user', { hasText: /^question 0$/ });
    expect(await first.count()).toBe(0);
    // Scrolled to the very top (measured heights settle over a few frames), the first message is there.
    await expect.poll(async () => {
      await view.page.locator('.transcript').evaluate((list) => list.scrollTo({ top: 0 }));
      return first.count();
    }).toBe(1);
    await view.page.close();
  }, 30_000);

  test('the meter shows the context, the chat totals and, when known, the cost', async () => {
    const view = await openStandaloneWebview(browser);
    const meter = { contextTokens: 45_200, contextWindow: 200_000, inputTokens: 120_500, outputTokens: 3_400, cacheReadTokens: 80_000 };
    await view.send({ type: 'init', entries: [], model: configured, meter });
    // Shown, not announced: the meter is no live region (a screen reader is not told every count).
    const status = view.page.locator('.meter');
    expect(await status.getAttribute('role')).toBeNull();
    expect((await status.textContent())?.replace(/\s+/g, ' ').trim()).toBe('Context 45.2k / 200.0k (23%) · this chat: 120.5k in, 3.4k out, 80.0k cached');
    await view.send({ type: 'usage', ...meter, promptCost: 0.0123, chatCost: 1.5 });
    expect((await status.textContent())?.replace(/\s+/g, ' ').trim()).toBe('Context 45.2k / 200.0k (23%) · this chat: 120.5k in, 3.4k out, 80.0k cached, $1.50 · last prompt $0.0123');
    await view.page.close();
  }, 30_000);

  test("first run offers VS Code's models and a local server's; a click posts the choice", async () => {
    const view = await openStandaloneWebview(browser);
    await view.send([
      { type: 'init', entries: [], model: { state: 'unconfigured' } },
      { type: 'localModels', servers: [{ name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', models: ['llama3.1:8b'] }], languageModels: [{ id: 'copilot-gpt-4o', name: 'GPT-4o (copilot)' }] },
    ]);
    const choices = view.page.getByRole('region', { name: 'Choose a model' }).getByRole('button');
    expect(await choices.allTextContents()).toEqual(['VS Code: GPT-4o (copilot)', 'Ollama: llama3.1:8b', 'Anthropic', 'OpenAI or compatible']);
    await choices.first().click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'setup', choice: 'vscode-lm', model: 'copilot-gpt-4o' });
    await view.page.close();
  }, 30_000);

  test('an approval card shows a 20 KB command in full with its hidden characters visible, answers by id, and goes when settled', async () => {
    const view = await openStandaloneWebview(browser);
    const command = `${'echo ok && '.repeat(1800)}echo \u202Eevil`;
    const card = { id: 'req-1', tool: 'bash', risk: 'process', summary: { kind: 'command', command, cwd: '.', sandbox: { state: 'sandboxed', text: 'Sandboxed — writes: the workspace, its own /tmp · network off' } }, source: 'default for bash: semi-judge', reasons: ['`echo \u202Eevil` has hidden characters'], grantable: [], sessionGrants: [], canAlways: false, canOpenDiff: false };
    await view.send([{ type: 'init', entries: [], model: configured }, { type: 'approval', card }]);
    const shown = view.page.getByRole('group', { name: 'Approval: Run a command' });
    expect(await shown.locator('pre.command').textContent()).toBe(command.replace('\u202E', '⟨U+202E⟩'));
    expect(await shown.getByRole('alert').textContent()).toContain('1 hidden or direction-changing character');
    // Nothing to grant (the gate said so): only Approve and Deny.
    expect(await shown.getByRole('button').allTextContents()).toEqual(['Approve', 'Deny']);
    await shown.getByRole('textbox', { name: 'Message for Peon with Deny' }).fill('no');
    await shown.getByRole('button', { name: 'Deny' }).click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'answer', id: 'req-1', answer: 'deny', message: 'no' });
    // The card stays until the host settles it, its buttons disabled meanwhile.
    expect(await shown.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await view.send({ type: 'approvalSettled', id: 'req-1' });
    await shown.waitFor({ state: 'detached' });
    await view.page.close();
  }, 30_000);

  test('a command card says how it runs (green, amber, red) and a delegate card what contains the agent', async () => {
    const view = await openStandaloneWebview(browser);
    const base = { tool: 'bash', risk: 'process', source: 'default for bash: semi-judge', reasons: ['not on the read-only list'], grantable: [], sessionGrants: [], canAlways: false, canOpenDiff: false };
    const sandboxed = 'Sandboxed — writes: the workspace, its own /tmp · network off · hidden: ~/.ssh, ~/.aws (+9) · 2 secret variables removed';
    const red = 'NOT sandboxed — you asked to run it outside the sandbox: full access to your files and network';
    const cards = [
      { ...base, id: 'c-1', summary: { kind: 'command', command: 'npm test', cwd: '.', sandbox: { state: 'sandboxed', text: sandboxed } } },
      { ...base, id: 'c-2', summary: { kind: 'command', command: 'npm install', cwd: 'web', sandbox: { state: 'network', text: 'Sandboxed, network ON — writes: the workspace, its own /tmp' } } },
      { ...base, id: 'c-3', summary: { kind: 'command', command: 'docker ps', cwd: '.', sandbox: { state: 'unsandboxed', text: red } } },
      { ...base, id: 'c-4', summary: { kind: 'command', command: 'make', cwd: '.' } },
      { ...base, id: 'c-5', tool: 'codex', risk: 'delegate', summary: { kind: 'delegate', executable: '/usr/bin/codex', argv: ['exec', '--sandbox', 'workspace-write', '--', 'fix it'], prompt: 'fix it', workspace: '/w', warning: 'Runs with your permissions.', containment: 'Its own PID namespace: Stop ends everything it started · codex sandboxes itself (workspace-write)' } },
    ];
    await view.send([{ type: 'init', entries: [], model: configured }, ...cards.map((card) => ({ type: 'approval', card }))]);
    const lines = view.page.locator('.approval').getByLabel('Sandbox');
    expect(await lines.allTextContents()).toEqual([sandboxed, 'Sandboxed, network ON — writes: the workspace, its own /tmp', red, 'NOT sandboxed: full access to your files and network']);
    expect(await lines.evaluateAll((ps) => ps.map((p) => `${p.className.replace(/\s*svelte-\S+/g, '')}:${p.getAttribute('role') ?? ''}`))).toEqual(['sandbox sandbox-sandboxed:', 'sandbox sandbox-network:', 'sandbox sandbox-unsandboxed:alert', 'sandbox sandbox-unsandboxed:alert']);
    // Red stands out in bold (and the theme's error colour, which this page without a theme lacks).
    expect(await lines.evaluateAll((ps) => ps.map((p) => (p.ownerDocument.defaultView as unknown as { getComputedStyle(e: unknown): { fontWeight: string } }).getComputedStyle(p).fontWeight))).toEqual(['400', '400', '700', '700']);
    const agent = view.page.getByRole('group', { name: 'Approval: Start codex' });
    expect(await agent.locator('.containment').textContent()).toBe('Its own PID namespace: Stop ends everything it started · codex sandboxes itself (workspace-write)');
    await view.page.close();
  }, 30_000);

  test('a network card shows the whole URL with its host in bold, and a punycode host with its Unicode form', async () => {
    const view = await openStandaloneWebview(browser);
    const url = 'https://xn--pypl-53dc.example/login?next=https://paypal.com/';
    const card = { id: 'req-3', tool: 'webfetch', risk: 'read_only', summary: { kind: 'network', url, host: 'xn--pypl-53dc.example', unicodeHost: 'раypаl.example' }, source: 'peon.permission.rules (user): webfetch -> ask', reasons: ['peon.permission.rules (user): webfetch -> ask'], grantable: ['xn--pypl-53dc.example'], sessionGrants: ['xn--pypl-53dc.example'], canAlways: true, canOpenDiff: false };
    const v6 = { ...card, id: 'req-4', summary: { kind: 'network', url: 'http://[2001:db8::1]:8080/x', host: '2001:db8::1' } };
    const search = { ...card, id: 'req-5', tool: 'websearch', summary: { kind: 'network', url: 'https://html.duckduckgo.com/html/', host: 'html.duckduckgo.com', query: 'internal codename <b>x</b>' } };
    await view.send([{ type: 'init', entries: [], model: configured }, { type: 'approval', card }, { type: 'approval', card: v6 }, { type: 'approval', card: search }]);
    const shown = view.page.getByRole('group', { name: 'Approval: Fetch from xn--pypl-53dc.example' });
    expect(await shown.getByLabel('URL').textContent()).toBe(url);
    // The host is the part right after the scheme, not the same text later in the query.
    expect(await shown.locator('.url-host').allTextContents()).toEqual(['xn--pypl-53dc.example']);
    expect(await shown.locator('.warning').textContent()).toContain('it displays as раypаl.example');
    expect(await view.page.getByRole('group', { name: 'Approval: Fetch from 2001:db8::1' }).locator('.url-host').allTextContents()).toEqual(['2001:db8::1']);
    const searching = view.page.getByRole('group', { name: 'Approval: Search the web via html.duckduckgo.com' });
    expect(await searching.locator('.query').textContent()).toBe('Query sent: “internal codename <b>x</b>”');
    await shown.getByRole('button', { name: 'Allow requests to xn--pypl-53dc.example for this chat' }).click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'answer', id: 'req-3', answer: 'session' });
    await view.page.close();
  }, 30_000);

  test('subagents: the strip shows each with its status and spend, a labelled card, Stop per child, and a transcript opened read-only', async () => {
    const view = await openStandaloneWebview(browser);
    const base = { parent: 'main', depth: 1, background: true, prompt: 'x', lastText: '', turns: 2, tools: ['read', 'grep', 'bash'], todoIds: [], startedAt: Date.now() - 5000, elapsedMs: 0 };
    const agents = [
      { ...base, name: 'scout', type: 'explorer', status: 'running', tokens: 12_400, cost: 0.0123, waiting: 'approval' },
      { ...base, name: 'builder', type: 'developer', status: 'completed', tokens: 800, elapsedMs: 65_000, startedAt: 0 },
    ];
    const card = { id: 'req-9', tool: 'bash', risk: 'process', summary: { kind: 'command', command: 'touch y', cwd: '.' }, source: 'default for bash: semi-judge', reasons: ['not on the read-only list'], grantable: [], sessionGrants: [], canAlways: false, canOpenDiff: false, agent: 'scout', agentType: 'explorer' };
    await view.send([{ type: 'init', entries: [{ kind: 'user', id: 'e1', text: 'main chat' }], model: configured }, { type: 'agents', agents }, { type: 'approval', card }]);
    const strip = view.page.getByRole('region', { name: 'Subagents' });
    const rows = await strip.locator('.agent-open').allTextContents();
    expect(rows[0]).toMatch(/scout\s*explorer\s*needs approval\s*12\.4k tokens · \$0\.0123\s*\d+ s/);
    expect(rows[1]).toMatch(/builder\s*developer\s*completed\s*800 tokens\s*1 min 5 s/);
    const shown = view.page.getByRole('group', { name: 'Approval: Run a command (scout, explorer)' });
    expect(await shown.locator('.approval-agent').textContent()).toBe('Asked by the subagent scout (explorer)');
    // Stop only where something runs.
    expect(await strip.getByRole('button', { name: /^Stop / }).count()).toBe(1);
    await strip.getByRole('button', { name: 'Stop scout' }).click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'stopAgent', name: 'scout' });
    await strip.getByTitle("Open builder's transcript").click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'openAgent', name: 'builder' });
    const entries = [{ kind: 'user', id: 'e1', text: 'Create y.' }, { kind: 'tool', id: 'e2', name: 'bash', args: '{"command":"touch y"}', status: 'running', output: '' }];
    await view.send([{ type: 'agentView', name: 'builder', entries }, { type: 'agentUpdate', name: 'builder', update: { type: 'tool', id: 'e2', status: 'ok', output: 'exit 0' } }, { type: 'agentUpdate', name: 'builder', update: { type: 'append', entry: { kind: 'assistant', id: 'e3', text: 'Created **y**.' } } }, { type: 'agentUpdate', name: 'scout', update: { type: 'append', entry: { kind: 'assistant', id: 'e9', text: 'not shown here' } } }]);
    const opened = view.page.getByRole('region', { name: 'Subagent builder' });
    expect(await opened.getByLabel('Its tools').textContent()).toBe('Tools: read, grep, bash');
    expect(await opened.locator('.message.user').textContent()).toBe('Create y.');
    expect(await opened.locator('.tool-status').textContent()).toBe('done');
    expect(await opened.locator('.message.assistant strong').textContent()).toBe('y');
    expect(await opened.textContent()).not.toContain('not shown here');
    expect(await view.page.locator('.message.user').allTextContents()).toEqual(['Create y.']); // the chat is behind it
    await opened.getByRole('button', { name: '← Chat' }).click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'closeAgent' });
    expect(await view.page.locator('.message.user').allTextContents()).toEqual(['main chat']);
    expect(view.violations).toEqual([]);
    await view.page.close();
  }, 30_000);

  test("a finished tool card reads as its headline, shown as text; the call's arguments stay inside", async () => {
    const view = await openStandaloneWebview(browser);
    const entry = { kind: 'tool', id: 'e1', name: 'webfetch', args: '{"url":"https://example.org/docs"}', status: 'running', output: '' };
    await view.send([{ type: 'init', entries: [entry], model: configured }, { type: 'tool', id: 'e1', status: 'ok', output: 'URL: https://example.org/docs', headline: 'Fetched example.org/docs · 34 KB → Markdown <img src=x onerror=window.__pwned=1>' }]);
    const card = view.page.getByRole('group', { name: 'Tool call webfetch' });
    expect(await card.locator('.tool-headline').textContent()).toBe('Fetched example.org/docs · 34 KB → Markdown <img src=x onerror=window.__pwned=1>');
    expect(await card.locator('img').count()).toBe(0);
    expect(await card.locator('.tool-args').textContent()).toBe('{"url":"https://example.org/docs"}');
    expect(view.extraRequests()).toEqual([]);
    await view.page.close();
  }, 30_000);

  test('a file-change card shows the diff collapsed past 30 rows until "Show all"', async () => {
    const view = await openStandaloneWebview(browser);
    const diff = ['--- a/big.txt', '+++ b/big.txt', '@@ -0,0 +1,40 @@', ...Array.from({ length: 40 }, (_, i) => `+line ${i}`)].join('\n');
    const card = { id: 'req-2', tool: 'write', risk: 'filesystem', summary: { kind: 'file-change', path: 'big.txt', operation: 'create', diff, reasons: [] }, source: 'default for write: semi-ask', reasons: ['it changes files'], grantable: ['big.txt'], sessionGrants: ['big.txt'], canAlways: true, canOpenDiff: true };
    await view.send([{ type: 'init', entries: [], model: configured }, { type: 'approval', card }]);
    const shown = view.page.getByRole('group', { name: 'Approval: Create big.txt' });
    expect(await shown.locator('.diff-row').count()).toBe(30);
    await shown.getByRole('button', { name: 'Show all 41 rows' }).click();
    expect(await shown.locator('.diff-row').count()).toBe(41);
    expect((await shown.getByRole('button').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['Show less', 'Open diff', 'Approve', 'Allow changes to big.txt for this chat', 'Always allow changes to big.txt — saved in your user settings', 'Deny']);
    await shown.getByRole('button', { name: /^Always allow/ }).click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'answer', id: 'req-2', answer: 'always' });
    await view.page.close();
  }, 30_000);
});
