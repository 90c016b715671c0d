// One web request as webfetch and websearch make it: every hop's target checked
// (egress.ts) before a connection is opened, at most MAX_REDIRECTS redirects, one
// deadline for the whole request, the body capped while it is read. A redirect to
// another host (its `www.` twin too) is not followed but reported: the person's rules and approvals are per
// host, so the next host is a new call the gate judges.
import type http from 'node:http';
import { ToolError } from '../tools/toolError';
import { connectionError, exchange } from './connection';
import { destinationOf, screenTarget, type EgressPolicy } from './egress';
import { proxyFor, type ProxySettings } from './proxy';
import { MAX_BODY_BYTES, readBody } from './responseBody';
import { hostKey } from './hostPolicy';
import { checkedWebUrl, hostOf } from './webUrl';

export const MAX_REDIRECTS = 5;
/** Failures that say this address cannot be reached, so the name's next checked address is worth a try. */
const UNREACHED = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'ECONNECTTIMEOUT', 'EPROXYCONNECT']);
const USER_AGENT = 'Mozilla/5.0 (compatible; Peon; a coding agent in VS Code)';

export interface FetchOptions {
  readonly policy: EgressPolicy;
  readonly proxy?: ProxySettings;
  readonly signal: AbortSignal;
  /** The whole request, redirects and body included. */
  readonly timeoutMs: number;
  readonly maxBytes?: number;
  readonly method?: 'GET' | 'POST';
  readonly form?: Readonly<Record<string, string>>;
  readonly accept?: string;
}

export interface FetchedPage {
  /** Where the body came from, after redirects. */
  readonly url: URL;
  readonly redirects: readonly string[];
  readonly status: number;
  readonly statusText: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly truncated: boolean;
  readonly incomplete: boolean;
  /** The server redirected to another host (`status` says how); that URL was not requested. */
  readonly redirectedTo?: URL;
}

/** Whether a redirect stays on the host the call was judged for (as rules compare hosts; `www.` is another host). */
export function sameHost(a: URL, b: URL): boolean {
  return hostKey(hostOf(a)) === hostKey(hostOf(b));
}

export async function fetchWeb(start: URL, options: FetchOptions): Promise<FetchedPage> {
  const deadline = new AbortController();
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  const timer = setTimeout(() => deadline.abort(new ToolError('timeout', `The request to ${start.host} did not finish within ${seconds} s (peon.web.timeoutSeconds).`)), options.timeoutMs);
  const signal = AbortSignal.any([options.signal, deadline.signal]);
  try {
    let url = start;
    let method = options.method ?? 'GET';
    let body = options.form ? Buffer.from(new URLSearchParams(options.form).toString()) : undefined;
    const redirects: string[] = [];
    for (;;) {
      const destination = await destinationOf(url, options.policy, signal);
      const proxy = proxyFor(url, options.proxy);
      const headers = {
        'user-agent': USER_AGENT,
        accept: options.accept ?? 'text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.8',
        'accept-encoding': 'gzip, deflate, br',
        'accept-language': 'en;q=0.9, *;q=0.5',
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      };
      // Each checked address in turn while the last one could not be reached; none was ever unchecked.
      const addresses = [destination, ...(destination.others ?? []).map((a) => ({ ...a, exempt: destination.exempt }))];
      let response: http.IncomingMessage | undefined;
      for (const [i, address] of addresses.entries()) {
        const last = i === addresses.length - 1;
        try {
          response = await exchange({ url, method, headers, ...(body ? { body } : {}), destination: address, ...(proxy ? { proxy } : {}), signal, connectTimeoutMs: Math.min(options.timeoutMs, last ? 15_000 : 5_000) });
          break;
        } catch (error) {
          if (last || signal.aborted || !(error instanceof ToolError) || !UNREACHED.has(String(error.details?.code ?? ''))) throw error;
        }
      }
      if (!response) throw new ToolError('unavailable', `${url.host} could not be reached.`);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location) {
        response.destroy();
        if (redirects.length >= MAX_REDIRECTS) throw new ToolError('unavailable', `${start.href} redirects more than ${MAX_REDIRECTS} times; the last hop was ${url.href}.`, { redirects: [...redirects, url.href] });
        const next = nextHop(url, location);
        // Another host is reported, not requested; one that is refused outright (a private literal, a reserved name) is refused here.
        screenTarget(next, options.policy.allowedHosts);
        if (!sameHost(url, next)) return { url, redirects, status, statusText: response.statusMessage ?? '', headers: response.headers, body: Buffer.alloc(0), truncated: false, incomplete: false, redirectedTo: next };
        redirects.push(url.href);
        url = next;
        // 303, and 301/302 after a POST, continue as GET without the body (as browsers do).
        if (status === 303 || (method === 'POST' && (status === 301 || status === 302))) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const read = await readBody(response, options.maxBytes ?? MAX_BODY_BYTES, signal).catch((error: unknown) => {
        throw signal.aborted ? signal.reason : connectionError(error, url);
      });
      return { url, redirects, status, statusText: response.statusMessage ?? '', headers: response.headers, body: read.bytes, truncated: read.truncated, incomplete: read.incomplete };
    }
  } catch (error) {
    if (signal.aborted && !(error instanceof ToolError)) throw signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function nextHop(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ToolError('unavailable', `${from.href} redirects to ${JSON.stringify(location.slice(0, 200))}, which is not a URL.`);
  }
  try {
    return checkedWebUrl(next);
  } catch (error) {
    const why = error instanceof ToolError ? error.message : String(error);
    throw new ToolError('permission_denied', `${from.href} redirects to ${next.href.slice(0, 300)}, which webfetch does not follow: ${why}`);
  }
}
