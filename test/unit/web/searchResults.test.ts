import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseSearchPage, resultTarget, type SearchResult } from '../../../src/core/web/searchResults';

const BASE = 'https://html.duckduckgo.com/html/';
const fixture = (name: string): string => fs.readFileSync(path.resolve(__dirname, '../../fixtures/web', name), 'utf8');

const results = (html: string, max = 20): readonly SearchResult[] => {
  const page = parseSearchPage(html, BASE, max);
  if (page.kind !== 'results') throw new Error(`expected results, got ${JSON.stringify(page)}`);
  return page.results;
};

/** A results page in the fixtures' shape, around the given result blocks. */
const serp = (inner: string): string => `<!DOCTYPE html><html><head><title>q at DuckDuckGo</title></head><body class="body--html">
  <form name="x" class="header__form" action="/html/" method="post"><input name="q" class="search__input" type="text" value="q" /></form>
  <div class="serp__results"><div id="links" class="results">${inner}
    <div class="feedback-btn"><a rel="nofollow" href="//duckduckgo.com/feedback.html" target="_new">Feedback</a></div>
  </div></div></body></html>`;

const block = (href: string, title: string, snippet = 'A snippet.', extraClass = 'web-result'): string => `
  <div class="result results_links results_links_deep ${extraClass}"><div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="${href}">${title}</a></h2>
    <a class="result__snippet" href="${href}">${snippet}</a>
  </div></div>`;

// DuckDuckGo's bot check as html.duckduckgo.com serves it (HTTP 202), trimmed to its markers.
const CHALLENGE_PAGE = `<!DOCTYPE html><html lang="en"><head><title>DuckDuckGo</title></head><body>
  <form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=botnet&amp;st=1790752157" method="POST">
    <div class="anomaly-modal__mask"><div class="anomaly-modal__modal  is-ie" data-testid="anomaly-modal">
      <div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
      <div class="anomaly-modal__description">Please complete the following challenge to confirm this search was made by a human.</div>
      <div class="anomaly-modal__instructions">Select all squares containing a duck:</div>
      <div class="anomaly-modal__puzzle"><div class="anomaly-modal__box" data-index="0"><label><input type="checkbox" class="anomaly-modal__check" name="image-check_0">
        <img class="anomaly-modal__image" alt=" " src="../assets/anomaly/images/challenge/0.jpg"></label></div></div>
      <button class="btn anomaly-modal__submit" type="submit">Submit</button>
    </div></div>
  </form></body></html>`;

describe('parseSearchPage on saved DuckDuckGo pages', () => {
  test('fixture 1: the ten organic results in order, the ad skipped, redirects decoded', () => {
    const found = results(fixture('ddg-html-1.html'));
    expect(found).toHaveLength(10);
    expect(found[0]).toEqual({
      title: 'The 7 Best Mechanical Keyboards of 2026 - RTINGS.com',
      url: 'https://www.rtings.com/keyboard/reviews/best/mechanical',
      snippet:
        "The best mechanical keyboard we've tested is the Keychron Q5 Max. This wireless keyboard has premium-feeling construction, a heavyweight aluminum case, and top-of-the-line typing quality right out of the box.",
    });
    expect(found[9]?.url).toBe('https://ide.com/best-mechanical-keyboards-in-2026-7-picks-from-budget-to-endgame/');
    for (const r of found) {
      expect(r.url).toMatch(/^https?:\/\//);
      expect(r.url).not.toContain('duckduckgo.com/l/');
      expect(r.url).not.toContain('y.js');
      expect(r.url).not.toContain('oneclearwinner');
      expect(r.title).not.toContain('Winner Products');
      expect(r.title).toBe(r.title.replace(/\s+/g, ' ').trim());
    }
  });

  test('fixture 2: entities decoded, Japanese text kept', () => {
    const found = results(fixture('ddg-html-2.html'));
    expect(found).toHaveLength(10);
    expect(found[1]).toEqual({
      title: 'foo | Meaning & Origin - Dictionary.com',
      url: 'https://www.dictionary.com/e/tech-science/foo/',
      snippet:
        'Foo is a term used in computer programming to indicate a generic or unspecified value or object. It has no connection to the WWII graffiti "Foo was here" or the FUBAR acronym.',
    });
    expect(found[7]?.snippet).toContain(`Foo Fighters' best songs from their album "Greatest Hits".`);
    expect(found[9]?.title).toBe('Foo Tokyo｜Official Website（フートウキョウ公式）');
    expect(found[9]?.url).toBe('https://footokyo.jp/');
    expect(found[9]?.snippet).toMatch(/^シルクパジャマやルームウェアの高級ブランドFoo Tokyo\(フートウキョウ\)公式サイトです。/);
  });

  test('max keeps the first results', () => {
    const all = results(fixture('ddg-html-2.html'));
    expect(results(fixture('ddg-html-2.html'), 3)).toEqual(all.slice(0, 3));
    expect(results(fixture('ddg-html-1.html'), 1).map((r) => r.title)).toEqual(['The 7 Best Mechanical Keyboards of 2026 - RTINGS.com']);
  });
});

describe('parseSearchPage on built pages', () => {
  test('direct hrefs, duplicates, and results without a title or usable link', () => {
    const page = serp(
      block('https://example.org/a', '  First\n   <b>result</b> ', ' one &amp;\n two ') +
        block('//example.org/b', 'Second') +
        block('https://example.org/a', 'First again') +
        block('javascript:alert(1)', 'Script') +
        block('https://example.org/c', '   ') +
        block('/html/?q=next', 'Relative'),
    );
    expect(results(page)).toEqual([
      { title: 'First result', url: 'https://example.org/a', snippet: 'one & two' },
      { title: 'Second', url: 'https://example.org/b', snippet: 'A snippet.' },
    ]);
  });

  test('ads are skipped by class, by badge, and by their y.js link', () => {
    const page = serp(
      block('https://ad.example/1', 'Ad by class', 'x', 'result--ad') +
        block('https://ad.example/2', 'Ad by badge <button class="badge--ad">Ad</button>') +
        block('https://duckduckgo.com/y.js?ad_domain=ad.example', 'Ad by link') +
        block('//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad_domain%3Dad.example&rut=1', 'Ad by redirect') +
        block('https://example.org/', 'Organic'),
    );
    expect(results(page).map((r) => r.title)).toEqual(['Organic']);
    expect(parseSearchPage(serp(block('https://ad.example/1', 'Only an ad', 'x', 'result--ad')), BASE, 10)).toEqual({ kind: 'empty' });
  });

  test("DuckDuckGo's no-results page is empty", () => {
    const page = serp('<div class="result results_links_deep"><div class="no-results">No  results.</div></div>');
    expect(parseSearchPage(page, BASE, 10)).toEqual({ kind: 'empty' });
    expect(parseSearchPage(serp(''), BASE, 10)).toEqual({ kind: 'empty' });
  });

  test('the bot challenge is blocked, by its markup or (markup changed) by its wording', () => {
    const expected = { kind: 'blocked', reason: expect.stringContaining('challenge') };
    expect(parseSearchPage(CHALLENGE_PAGE, BASE, 10)).toEqual(expected);
    expect(parseSearchPage('<form action="//duckduckgo.com/anomaly.js?sv=html"></form>', BASE, 10)).toEqual(expected);
    expect(parseSearchPage('<html><body><div class="modal"><p>Unfortunately, bots use DuckDuckGo too.</p></div></body></html>', BASE, 10)).toEqual(expected);
  });

  test('a results page quoting the challenge wording is still results', () => {
    const page = serp(block('https://example.org/q', 'Quote', 'Unfortunately, bots use DuckDuckGo too. Please complete the following challenge'));
    expect(results(page).map((r) => r.url)).toEqual(['https://example.org/q']);
  });

  test('anything else is not a DuckDuckGo results page, and odd input never throws', () => {
    const notResults = { kind: 'blocked', reason: 'not a DuckDuckGo results page' };
    for (const html of ['', '<html><body>hello</body></html>', '\u0000<<<>>>&&&', '<div class="result"><span>odd</span></div>', 'If this persists, please <a href="mailto:error-lite@duckduckgo.com">email us</a>.']) {
      expect(parseSearchPage(html, BASE, 10)).toEqual(notResults);
    }
    expect(parseSearchPage(serp(block('https://example.org/', 'T')), 'not a url', 10)).toEqual({ kind: 'results', results: [{ title: 'T', url: 'https://example.org/', snippet: 'A snippet.' }] });
  });
});

describe('resultTarget', () => {
  test("decodes DuckDuckGo's redirect, protocol-relative, absolute or relative", () => {
    const encoded = 'uddg=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1&rut=abc';
    expect(resultTarget(`//duckduckgo.com/l/?${encoded}`, BASE)).toBe('https://example.org/a?b=1');
    expect(resultTarget(`https://duckduckgo.com/l/?${encoded}`, BASE)).toBe('https://example.org/a?b=1');
    expect(resultTarget(`https://html.duckduckgo.com/l/?${encoded}`, BASE)).toBe('https://example.org/a?b=1');
    expect(resultTarget(`/l/?${encoded}`, BASE)).toBe('https://example.org/a?b=1');
  });

  test('returns a direct link as is, absolute', () => {
    expect(resultTarget('https://example.org/x', BASE)).toBe('https://example.org/x');
    expect(resultTarget('//example.org/x', BASE)).toBe('https://example.org/x');
    expect(resultTarget('https://notduckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org', BASE)).toBe('https://notduckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org');
  });

  test('refuses anything that does not lead to an http(s) page', () => {
    for (const href of ['javascript:alert(1)', '/l/?uddg=javascript%3Aalert(1)', '//duckduckgo.com/l/?uddg=ftp%3A%2F%2Fexample.org%2Ff', 'data:text/html,hi', '//duckduckgo.com/l/?rut=abc', '//duckduckgo.com/l/?uddg=%2Frelative', '/html/?q=x', '', 'http://']) {
      expect(resultTarget(href, BASE), href).toBeUndefined();
    }
  });
});
