// What webfetch accepts as a URL, and how it names its host and port: http(s) only, no
// credentials, parsed once by the WHATWG URL parser (the same one every hop is checked
// with), so `http://0x7f.1/` and `http://2130706433/` are already 127.0.0.1 here.
import { domainToUnicode } from 'node:url';
import { ToolError } from '../tools/toolError';

/** The longest URL a call may name (an approval card shows it whole). */
export const MAX_URL_CHARS = 8192;

/** Parses a URL for webfetch, or throws `invalid_input` saying what is wrong with it. */
export function parseWebUrl(raw: string): URL {
  const text = raw.trim();
  if (text.length > MAX_URL_CHARS) throw new ToolError('invalid_input', `The URL is ${text.length} characters long; webfetch takes at most ${MAX_URL_CHARS}.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const hint = /^[a-z][a-z0-9+.-]*:/i.test(text) ? '' : ' Include the scheme: https://…';
    throw new ToolError('invalid_input', `${JSON.stringify(text.slice(0, 200))} is not a valid URL.${hint}`);
  }
  return checkedWebUrl(url);
}

/** A parsed URL (a redirect's Location too) that webfetch may request: http(s), a host, no credentials. */
export function checkedWebUrl(url: URL): URL {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError('invalid_input', `webfetch fetches http:// and https:// URLs only, not ${url.protocol} URLs.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ToolError('invalid_input', 'The URL carries a user name or password; webfetch never sends credentials. Give the URL without them.');
  }
  if (hostOf(url) === '') throw new ToolError('invalid_input', 'The URL has no host.');
  url.hash = '';
  return url;
}

/** The host as the URL parser wrote it, without IPv6 brackets: `example.org`, `127.0.0.1`, `::1`. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The port the connection goes to: the URL's, or the scheme's default. */
export function portOf(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** How a host reads for a person: the Unicode form of a punycode (`xn--`) name, when it differs. */
export function unicodeHost(url: URL): string | undefined {
  const host = hostOf(url);
  if (!/(^|\.)xn--/i.test(host)) return undefined;
  const unicode = domainToUnicode(host);
  return unicode !== '' && unicode !== host ? unicode : undefined;
}

/** The URL as a card or a tool result names it briefly: host, path and query, no scheme. */
export function shortUrl(url: URL, max = 80): string {
  const text = `${url.host}${url.pathname === '/' ? '' : url.pathname}${url.search}`;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
