// websearch through a real conversation against a loopback server that serves recorded
// DuckDuckGo pages (test/fixtures/web, copied byte for byte from public repositories'
// own test fixtures): never the live endpoint.
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { conversationIn } from '../conversation/conversationTestKit';
import { tempDir } from '../tools/toolTestContext';
import { webServer, type TestServer } from './webServers';

const fixture = (name: string): string => fs.readFileSync(path.resolve(__dirname, '../../fixtures/web', name), 'utf8');
const page = (body: string, status = 200) => (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(status, { 'content-type': 'text/html; charset=UTF-8' }).end(body);

const CHALLENGE = `<!DOCTYPE html><html><head><title>DuckDuckGo</title></head><body><div class="anomaly-modal__mask"><div class="anomaly-modal__modal" data-testid="anomaly-modal">
<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div><div class="anomaly-modal__description">Please complete the following challenge to confirm this search was made by a human.</div>
<form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=sre&amp;ti=1&amp;gk=x&amp;p=y&amp;q=foo&amp;o=z&amp;r=euw" method="POST"></form></div></div></body></html>`;
const NO_RESULTS = `<!DOCTYPE html><html><head><title>zzqqxx at DuckDuckGo</title></head><body><div id="links" class="results"><div class="no-results">No  results.</div></div></body></html>`;

function searcher(server: TestServer | undefined, endpoint: string, lookup?: (host: string) => never) {
  return conversationIn(tempDir('peon-search-'), {
    user: { 'peon.web.search.endpoint': endpoint, 'peon.web.allowedHosts': server ? [server.hostPort] : [] },
    ...(lookup ? { hooks: { web: { lookup: async (host: string) => lookup(host) } } } : {}),
  });
}

describe('websearch', () => {
  test('a recorded results page: ten organic results with real URLs and snippets, the ad skipped; the query is POSTed as the page does', async () => {
    const server = await webServer({ '/html/': page(fixture('ddg-html-1.html')) });
    const convo = searcher(server, `${server.origin}/html/`);
    const outcome = await convo.call('websearch', { query: 'best mechanical keyboard 2026' });
    if (!outcome.ok) throw new Error(outcome.error.message);
    const results = outcome.data.results as { title: string; url: string; snippet: string }[];
    expect(results).toHaveLength(10);
    expect(results[0]).toMatchObject({ title: 'The 7 Best Mechanical Keyboards of 2026 - RTINGS.com', url: 'https://www.rtings.com/keyboard/reviews/best/mechanical' });
    expect(results.every((r) => /^https?:\/\//.test(r.url) && !r.url.includes('duckduckgo.com'))).toBe(true);
    expect(outcome.output).not.toMatch(/Winner Products|y\.js/);
    expect(outcome.output).toMatch(/^1\. The 7 Best Mechanical Keyboards of 2026 - RTINGS\.com\n {3}https:\/\/www\.rtings\.com\/keyboard\/reviews\/best\/mechanical\n {3}\S/m);
    expect(outcome.headline).toBe("Searched the web for 'best mechanical keyboard 2026' · 10 results");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/html/', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(new URLSearchParams(server.requests[0]!.body).get('q')).toBe('best mechanical keyboard 2026');
  });

  test('entities are decoded and Japanese text kept; maxResults cuts the list', async () => {
    const server = await webServer({ '/html/': page(fixture('ddg-html-2.html')) });
    const convo = searcher(server, `${server.origin}/html/`);
    const outcome = await convo.call('websearch', { query: 'foo', maxResults: 3 });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.data.results).toHaveLength(3);
    const all = await convo.call('websearch', { query: 'foo' });
    if (!all.ok) throw new Error(all.error.message);
    expect(all.output).toContain('Foo Tokyo｜Official Website（フートウキョウ公式）');
    expect(all.output).toContain('"Foo was here"');
    expect(all.output).not.toMatch(/&quot;|&#x27;|&amp;/);
  });

  test('maxResults outside 1–20 and an empty query are invalid_input', async () => {
    const convo = searcher(undefined, 'http://127.0.0.1:9/html/');
    for (const input of [{ query: 'x', maxResults: 0 }, { query: 'x', maxResults: 21 }, { query: 'x', maxResults: 2.5 }, { query: '   ' }, {}]) {
      expect(await convo.call('websearch', input), JSON.stringify(input)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
  });

  test('an empty result is an answer; a captcha page and no network are unavailable, each saying which', async () => {
    const server = await webServer({ '/empty/': page(NO_RESULTS), '/blocked/': page(CHALLENGE, 202) });
    const empty = await searcher(server, `${server.origin}/empty/`).call('websearch', { query: 'zzqqxx' });
    expect(empty).toMatchObject({ ok: true, output: "No results for 'zzqqxx'.", headline: "Searched the web for 'zzqqxx' · no results" });
    const blocked = await searcher(server, `${server.origin}/blocked/`).call('websearch', { query: 'foo' });
    expect(blocked).toMatchObject({ ok: false, error: { code: 'unavailable', details: { reason: 'blocked', status: 202 } } });
    expect(!blocked.ok && blocked.error.message).toContain('bot challenge');
    const offline = await searcher(undefined, 'https://html.duckduckgo.example.test/html/', () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND html.duckduckgo.example.test'), { code: 'ENOTFOUND' });
    }).call('websearch', { query: 'foo' });
    expect(offline).toMatchObject({ ok: false, error: { code: 'unavailable', details: { reason: 'no network', code: 'ENOTFOUND' } } });
    expect(!offline.ok && offline.error.message).toMatch(/^No network: the search for 'foo' could not reach html\.duckduckgo\.example\.test/);
  });

  test('a redirect of the search to another host is not followed: the query goes nowhere it was not pointed at', async () => {
    const server = await webServer({ '/html/': (q, res) => res.writeHead(307, { location: `http://other.example.test:${q.socket.localPort}/html/` }).end() });
    const outcome = await searcher(server, `${server.origin}/html/`).call('websearch', { query: 'foo' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unavailable', details: { reason: 'redirected' } } });
    expect(server.requests).toHaveLength(1);
  });

  test('the results page is read in the worker: a page deep enough to stall a parser ends with Stop, and the host thread runs on', async () => {
    const stop = new AbortController();
    const server = await webServer({
      '/html/': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<div>'.repeat(60_000));
        setTimeout(() => stop.abort(new Error('Stop')), 50);
      },
    });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const convo = conversationIn(tempDir('peon-search-'), {
      user: { 'peon.web.allowedHosts': [server.hostPort], 'peon.web.search.endpoint': `${server.origin}/html/`, 'peon.web.timeoutSeconds': 600 },
      hooks: { web: { markdownWorker: path.resolve(__dirname, '../../../dist/markdownWorker.js') } },
      extra: { signal: stop.signal },
    });
    const outcome = await convo.call('websearch', { query: 'anything' });
    clearInterval(ticker);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(ticks).toBeGreaterThan(0);
  });

  test('the endpoint passes the same egress check: a loopback endpoint not on the list is refused, unasked and unreached', async () => {
    const server = await webServer({ '/html/': page(fixture('ddg-html-2.html')) });
    const convo = conversationIn(tempDir('peon-search-'), { user: { 'peon.web.search.endpoint': `${server.origin}/html/` } });
    expect(await convo.call('websearch', { query: 'foo' })).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(server.connections).toEqual([]);
  });

  test('with an ask rule the card names the query that goes out and the host it goes to', async () => {
    const server = await webServer({ '/html/': page(fixture('ddg-html-2.html')) });
    const asked: unknown[] = [];
    const convo = conversationIn(tempDir('peon-search-'), {
      user: { 'peon.web.search.endpoint': `${server.origin}/html/`, 'peon.web.allowedHosts': [server.hostPort], 'peon.permission.rules': { websearch: 'ask' } },
      hooks: { approve: async (request) => (asked.push(request.assessment.summary), { approved: false }) },
    });
    expect(await convo.call('websearch', { query: 'secret project name' })).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(asked).toEqual([{ kind: 'network', url: `${server.origin}/html/`, host: '127.0.0.1', query: 'secret project name' }]);
    expect(server.connections).toEqual([]);
  });
});
