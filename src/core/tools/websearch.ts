import * as z from 'zod';
import { decodeText } from '../web/charset';
import { screenTarget } from '../web/egress';
import { fetchWeb } from '../web/fetchWeb';
import { pageWorker } from '../web/pageWorker';
import type { SearchResult } from '../web/searchResults';
import { parseWebUrl } from '../web/webUrl';
import { defineTool } from './defineTool';
import { ToolError } from './toolError';
import { egressPolicy, networkSummary, requestOptions } from './webRequest';
import description from './websearch.md';

export const DEFAULT_SEARCH_ENDPOINT = 'https://html.duckduckgo.com/html/';
const DEFAULT_RESULTS = 10;
/** Codes of a request that never reached a server: no network here, as the answer says. */
const NO_NETWORK = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNREFUSED', 'ETIMEDOUT']);

const input = z.object({
  query: z.string().trim().min(1).max(500).describe('What to search for.'),
  maxResults: z.number().int().min(1).max(20).optional().describe('How many results, 1–20 (default 10).'),
});

export const websearchTool = defineTool({
  name: 'websearch',
  description,
  input,
  risk: 'read_only',
  async assess(args, ctx) {
    const endpoint = parseWebUrl(ctx.settings['peon.web.search.endpoint'] ?? DEFAULT_SEARCH_ENDPOINT);
    screenTarget(endpoint, egressPolicy(ctx).allowedHosts);
    return { risk: 'read_only', writes: false, paths: [], summary: networkSummary(endpoint, args.query), prepared: endpoint };
  },
  async execute(args, ctx, assessment) {
    const endpoint = assessment.prepared as URL;
    const max = args.maxResults ?? DEFAULT_RESULTS;
    const quoted = `'${args.query}'`;
    const options = requestOptions(ctx);
    let page;
    try {
      page = await fetchWeb(endpoint, { ...options, method: 'POST', form: { q: args.query, b: '' }, accept: 'text/html' });
    } catch (error) {
      const code = error instanceof ToolError ? String(error.details?.code ?? '') : '';
      if (error instanceof ToolError && NO_NETWORK.has(code)) {
        throw new ToolError('unavailable', `No network: the search for ${quoted} could not reach ${endpoint.host} (${code}). ${error.message}`, { reason: 'no network', code });
      }
      throw error;
    }
    if (page.redirectedTo) {
      throw new ToolError('unavailable', `The search endpoint ${endpoint.host} redirected the search for ${quoted} to another host (${page.redirectedTo.host}); websearch does not send a query on to a host it was not pointed at.`, { reason: 'redirected', to: page.redirectedTo.href });
    }
    const text = decodeText(page.body, String(page.headers['content-type'] ?? ''), 'html').text;
    // Parsed in the worker, like webfetch's pages: the endpoint's page is the person's choice, not ours to trust.
    const parsed = await pageWorker(ctx.web?.markdownWorker).search(text, page.url, max, ctx.signal, options.timeoutMs);
    if (parsed.kind === 'blocked' || page.status < 200 || page.status > 299) {
      const why = parsed.kind === 'blocked' ? parsed.reason : `the endpoint answered ${page.status} ${page.statusText}`.trim();
      throw new ToolError('unavailable', `The search engine refused the search for ${quoted}: ${why} (HTTP ${page.status}). Try again later, or fetch a page you know with webfetch.`, { reason: 'blocked', status: page.status });
    }
    if (parsed.kind === 'empty') {
      return { output: `No results for ${quoted}.`, headline: `Searched the web for ${quoted} · no results`, data: { query: args.query, results: [] } };
    }
    return {
      output: formatResults(args.query, parsed.results),
      headline: `Searched the web for ${quoted} · ${parsed.results.length} result${parsed.results.length === 1 ? '' : 's'}`,
      data: { query: args.query, results: parsed.results },
    };
  },
});

function formatResults(query: string, results: readonly SearchResult[]): string {
  const lines = [`Results for '${query}':`, ''];
  results.forEach((r, i) => {
    lines.push(`${i + 1}. ${r.title}`, `   ${r.url}`);
    if (r.snippet !== '') lines.push(`   ${r.snippet}`);
    lines.push('');
  });
  lines.push('Snippets are the search engine\'s excerpts: fetch a page with webfetch before relying on it.');
  return lines.join('\n');
}
