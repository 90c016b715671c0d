// What webfetch and websearch share: the egress policy from the person's settings, the
// request deadline, and the approval card of a request leaving the machine.
import type { EgressPolicy } from '../web/egress';
import { systemLookup } from '../web/egress';
import type { FetchOptions } from '../web/fetchWeb';
import { outboundConcerns, urlConcerns } from '../web/outboundData';
import { hostOf, unicodeHost } from '../web/webUrl';
import type { ApprovalSummary, ToolContext } from './contract';

export const DEFAULT_WEB_TIMEOUT_SECONDS = 30;

export function egressPolicy(ctx: ToolContext): EgressPolicy {
  return { allowedHosts: ctx.settings['peon.web.allowedHosts'] ?? [], lookup: ctx.web?.lookup ?? systemLookup };
}

/** The options every request of these tools starts from. */
export function requestOptions(ctx: ToolContext): FetchOptions {
  return {
    policy: egressPolicy(ctx),
    ...(ctx.web?.proxy ? { proxy: ctx.web.proxy } : {}),
    signal: ctx.signal,
    timeoutMs: (ctx.settings['peon.web.timeoutSeconds'] ?? DEFAULT_WEB_TIMEOUT_SECONDS) * 1000,
  };
}

/**
 * The card of a request: the whole URL, the host as sent and as it reads in Unicode, a
 * search's query, and what in them looks like data leaving the machine.
 */
export function networkSummary(url: URL, query?: string): Extract<ApprovalSummary, { kind: 'network' }> {
  const unicode = unicodeHost(url);
  const concerns = query !== undefined ? outboundConcerns(query, 'the search query') : urlConcerns(url);
  return {
    kind: 'network',
    url: url.href,
    host: hostOf(url),
    ...(unicode ? { unicodeHost: unicode } : {}),
    ...(query !== undefined ? { query } : {}),
    ...(concerns.length > 0 ? { concerns } : {}),
  };
}
