// A DuckDuckGo HTML-endpoint page (https://html.duckduckgo.com/html/) as data: its organic
// results, or why it has none (an honest empty search, a bot challenge, or a page that is not
// a results page at all). Parsed with a real HTML parser (domino), never with regexes over markup.
import { createDocument, type DominoDocument, type DominoElement } from '@mixmark-io/domino';

/** One organic result: title and snippet with whitespace collapsed, and the URL it really leads to. */
export interface SearchResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** What a page turned out to be. */
export type SearchPage =
  | { readonly kind: 'results'; readonly results: readonly SearchResult[] }
  /** A real results page that found nothing. */
  | { readonly kind: 'empty' }
  /** A bot challenge, an error page, or something that is not a DuckDuckGo results page. */
  | { readonly kind: 'blocked'; readonly reason: string };

const NOT_RESULTS = 'not a DuckDuckGo results page';
const CHALLENGE = 'DuckDuckGo served its bot challenge ("anomaly" page) instead of results';

/** DuckDuckGo's challenge page, by its markup: the challenge form, its anomaly.js action, the modal's classes. */
const CHALLENGE_MARKUP = '#challenge-form, form[action*="anomaly.js"], [class*="anomaly-modal"]';
/** ...and by its wording, for when that markup changes. Only read on a page with no results structure:
 * a results page for a query quoting these words has them in its snippets. */
const CHALLENGE_WORDS = ['bots use DuckDuckGo too', 'complete the following challenge'];
/** The results page's own structure: present even when the search found nothing. */
const RESULTS_STRUCTURE = '#links.results, .serp__results, .no-results';

const collapse = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

const isDuckDuckGoHost = (url: URL): boolean => url.hostname === 'duckduckgo.com' || url.hostname.endsWith('.duckduckgo.com');

/** `raw` (if relative, resolved against `base`) when it is a valid http(s) URL. */
function httpUrl(raw: string, base?: string): URL | undefined {
  try {
    const url = URL.canParse(raw) ? new URL(raw) : new URL(raw, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The real target of a result link. DuckDuckGo's redirect (`/l/?uddg=<encoded>&rut=…` on any host
 * ending duckduckgo.com, absolute, protocol-relative or relative to `base`) is decoded to its target;
 * a direct absolute or protocol-relative href is returned as is, absolute. Only http(s) targets count:
 * `javascript:`, `data:`, `ftp:`, a relative non-redirect href or a malformed one give `undefined`.
 */
export function resultTarget(href: string, base: string): string | undefined {
  const raw = href.trim();
  const link = httpUrl(raw, base);
  if (!link) return undefined;
  if (isDuckDuckGoHost(link) && (link.pathname === '/l/' || link.pathname === '/l')) {
    const target = link.searchParams.get('uddg');
    return target === null ? undefined : httpUrl(target.trim())?.href;
  }
  // A relative href that is not the redirect points back into DuckDuckGo, never at a result.
  return raw.startsWith('//') || URL.canParse(raw) ? link.href : undefined;
}

/** Ads: marked by class or badge, or leading to DuckDuckGo's ad-click redirect (y.js). */
function isAd(result: DominoElement, url: string): boolean {
  const target = new URL(url);
  return result.classList.contains('result--ad') || Boolean(result.querySelector('.badge--ad')) || (isDuckDuckGoHost(target) && target.pathname === '/y.js');
}

/** The organic results in page order, deduplicated by URL; results without a usable title or URL are skipped. */
function organicResults(doc: DominoDocument, base: string): SearchResult[] {
  const results: SearchResult[] = [];
  const seen = new Set<string>();
  for (const element of Array.from(doc.querySelectorAll('.result'))) {
    const anchor = element.querySelector('a.result__a') ?? element.querySelector('.result__a');
    const title = collapse(anchor?.textContent);
    const url = resultTarget(anchor?.getAttribute('href') ?? '', base);
    if (!title || url === undefined || seen.has(url) || isAd(element, url)) continue;
    seen.add(url);
    results.push({ title, url, snippet: collapse(element.querySelector('.result__snippet')?.textContent) });
  }
  return results;
}

/**
 * Parses a DuckDuckGo HTML-endpoint page: organic results in page order, ads skipped, at most `max`.
 * `base` is the endpoint URL the page came from (it resolves relative and protocol-relative hrefs
 * such as `//duckduckgo.com/l/?uddg=…`). Never throws: odd input is a `blocked` page.
 */
export function parseSearchPage(html: string, base: string, max: number): SearchPage {
  try {
    const doc: DominoDocument = createDocument(html, true);
    if (doc.querySelector(CHALLENGE_MARKUP)) return { kind: 'blocked', reason: CHALLENGE };
    const results = organicResults(doc, base);
    if (results.length > 0) return { kind: 'results', results: results.slice(0, Math.max(0, Math.floor(max))) };
    if (doc.querySelector(RESULTS_STRUCTURE)) return { kind: 'empty' };
    const words = collapse(doc.body?.textContent);
    return { kind: 'blocked', reason: CHALLENGE_WORDS.some((w) => words.includes(w)) ? CHALLENGE : NOT_RESULTS };
  } catch {
    // A page deep enough to overflow the parser's stack is not a results page either.
    return { kind: 'blocked', reason: NOT_RESULTS };
  }
}
