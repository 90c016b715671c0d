import * as z from 'zod';
import { decodeText } from '../web/charset';
import { screenTarget } from '../web/egress';
import { fetchWeb, type FetchedPage } from '../web/fetchWeb';
import type { PageMarkdown } from '../web/htmlToMarkdown';
import { pageWorker } from '../web/pageWorker';
import { bodyKind } from '../web/mediaType';
import { MAX_BODY_BYTES } from '../web/responseBody';
import { withoutTracking } from '../web/outboundData';
import { MAX_URL_CHARS, parseWebUrl, shortUrl } from '../web/webUrl';
import type { ToolContext, ToolResult } from './contract';
import { defineTool } from './defineTool';
import { ToolError } from './toolError';
import { formatSize } from '../../shared/format';
import { egressPolicy, networkSummary, requestOptions } from './webRequest';
import description from './webfetch.md';

const input = z.object({
  url: z.string().min(1).max(MAX_URL_CHARS).describe('The URL to fetch, with http:// or https://.'),
  raw: z.boolean().optional().describe('Return the HTML as it came instead of Markdown.'),
});

export const webfetchTool = defineTool({
  name: 'webfetch',
  description,
  input,
  risk: 'read_only',
  async assess(args, ctx) {
    // Click tracking (utm_*, fbclid, …) is dropped first: the card shows what is requested.
    const { url, removed } = withoutTracking(parseWebUrl(args.url));
    // An IP literal or a reserved name is refused before anyone is asked; a name is resolved only once the call may run.
    screenTarget(url, egressPolicy(ctx).allowedHosts);
    return { risk: 'read_only', writes: false, paths: [], summary: networkSummary(url), prepared: { url, removed } satisfies Prepared };
  },
  async execute(args, ctx, assessment) {
    const { url, removed } = assessment.prepared as Prepared;
    const options = requestOptions(ctx);
    const page = await fetchWeb(url, options);
    const worker = pageWorker(ctx.web?.markdownWorker);
    const result = await pageResult(page, args.raw ?? false, ctx, (html) => worker.markdown(html, page.url, ctx.signal, options.timeoutMs));
    return removed.length > 0 ? { ...result, output: `${result.output}\n\n[tracking parameters left out of the request: ${removed.join(', ')}]`, data: { ...result.data, removedParameters: removed } } : result;
  },
});

interface Prepared {
  readonly url: URL;
  readonly removed: readonly string[];
}

async function pageResult(page: FetchedPage, raw: boolean, ctx: ToolContext, convert: (html: string) => Promise<PageMarkdown>): Promise<ToolResult> {
  const contentType = headerText(page.headers['content-type']);
  const { kind, type } = bodyKind(contentType, page.body);
  const facts = {
    url: page.url.href,
    ...(page.redirects.length > 0 ? { redirects: page.redirects } : {}),
    status: page.status,
    contentType: type,
    bytes: page.body.length,
    ...(page.truncated ? { cutAtBytes: MAX_BODY_BYTES } : {}),
    ...(page.incomplete ? { incomplete: true } : {}),
  };
  const head = [`URL: ${page.url.href}`, ...(page.redirects.length > 0 ? [`Redirected from: ${page.redirects.join(' → ')}`] : []), `Status: ${page.status} ${page.statusText}`.trim()];
  if (page.redirectedTo) {
    const to = page.redirectedTo.href;
    const output = [...head, `Redirects to: ${to}`, '', `This is another host, so webfetch did not follow it: the user's rules and approvals apply to each host. To read it, call webfetch with ${to}`].join('\n');
    return { output, headline: `Fetched ${shortUrl(page.url)} · redirects to ${page.redirectedTo.host}`, data: { ...facts, redirectedTo: to } };
  }
  if (page.status < 200 || page.status > 299) throw httpError(page, kind === 'binary' ? '' : decodeText(page.body, contentType, kind).text);
  if (kind === 'binary') {
    const output = [...head, `Content: ${type}, ${formatSize(page.body.length)}${page.truncated ? ' or more' : ''}. Binary content is not returned.`].join('\n');
    return { output, headline: `Fetched ${shortUrl(page.url)} · ${type} ${formatSize(page.body.length)} (binary, not shown)`, data: { ...facts, binary: true } };
  }
  const decoded = decodeText(page.body, contentType, kind);
  const markdown = kind === 'html' && !raw ? await convert(decoded.text) : undefined;
  const body = markdown ? markdown.markdown : decoded.text;
  const notes = [
    ...(decoded.note ? [`[${decoded.note}; read as ${decoded.encoding}]`] : []),
    ...(page.truncated ? [`[the body was cut at ${formatSize(MAX_BODY_BYTES)}: the server sent more]`] : []),
    ...(page.incomplete ? ['[the server closed the connection before the body was complete]'] : []),
  ];
  const form = markdown ? 'Markdown' : kind === 'html' ? 'HTML' : 'text';
  head.push(`Content: ${type}, ${formatSize(page.body.length)}, ${decoded.encoding}${markdown ? ', converted to Markdown' : ''}`);
  if (markdown?.title) head.push(`Title: ${markdown.title}`);
  const prefix = `${head.join('\n')}\n\n`;
  const suffix = notes.length > 0 ? `\n\n${notes.join('\n')}` : '';
  const room = Math.max(0, ctx.limits.maxOutputChars - prefix.length - suffix.length - 200);
  const shown = body.length > room ? body.slice(0, room) : body;
  const cut = shown.length < body.length ? `\n\n[output cut: ${shown.length} of ${body.length} characters shown]` : '';
  return {
    output: `${prefix}${shown}${cut}${suffix}`,
    headline: `Fetched ${shortUrl(page.url)} · ${formatSize(page.body.length)} → ${form}`,
    data: { ...facts, encoding: decoded.encoding, form, ...(markdown?.title ? { title: markdown.title } : {}), chars: body.length, truncated: cut !== '', shownChars: shown.length },
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A status outside 2xx: 404 and 410 are `not_found`, anything else `unavailable`, with the start of what the server said. */
function httpError(page: FetchedPage, text: string): ToolError {
  // Cut first: the tag-stripping pattern is linear only on a bounded string.
  const excerpt = text.slice(0, 4096).replace(/<[^>]{0,4096}>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
  const said = excerpt !== '' ? ` It said: ${excerpt}` : '';
  const status = `${page.status} ${page.statusText}`.trim();
  const code = page.status === 404 || page.status === 410 ? 'not_found' : 'unavailable';
  return new ToolError(code, `${page.url.href} answered ${status}.${said}`, { status: page.status, url: page.url.href });
}
