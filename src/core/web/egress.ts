// Where a request may go (DESIGN.md §4 webfetch; SECURITY.md rule 4): the host is
// resolved once, every address it resolves to is classified, and the connection goes to
// an address that passed — no second lookup, so a name cannot be re-pointed (DNS
// rebinding) between the check and the connection. Every redirect hop comes back here.
import dns from 'node:dns';
import os from 'node:os';
import { untilAborted } from '../deadline';
import { ToolError } from '../tools/toolError';
import { classifyAddress, describeClass, parseIpLiteral } from './ipAddress';
import { isAllowedHost, reservedName } from './hostPolicy';
import { hostOf, portOf } from './webUrl';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to all its addresses (default: the system resolver, as every program on the machine sees it). */
export type HostLookup = (host: string, signal: AbortSignal) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: HostLookup = async (host) => {
  const found = await dns.promises.lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Where the connection for one URL goes. */
export interface Destination extends ResolvedAddress {
  /** The host is in peon.web.allowedHosts: its addresses were not classified. */
  readonly exempt: boolean;
  /** The name's other addresses, checked too: tried in order when this one cannot be reached (an IPv6 address on an IPv4-only network). */
  readonly others?: readonly ResolvedAddress[];
}

export interface EgressPolicy {
  readonly allowedHosts: readonly string[];
  readonly lookup: HostLookup;
}

const EXEMPT_HINT = 'Peon never fetches addresses on this machine or its private network; the user can exempt a host they trust with peon.web.allowedHosts in their user settings.';

/**
 * Why an address must not be fetched: its class (ipAddress.ts), or that it is one of
 * this machine's own addresses (a VM's public address on its own interface reaches the
 * services listening on it as surely as 127.0.0.1 does).
 */
function whyRefused(address: string): string | undefined {
  const cls = classifyAddress(address);
  if (cls) return describeClass(cls);
  const canonical = parseIpLiteral(address);
  const own = Object.values(os.networkInterfaces()).flat().some((i) => {
    const mine = i ? parseIpLiteral(i.address.replace(/%.*$/, '')) : undefined;
    return mine && !('invalid' in mine) && canonical && !('invalid' in canonical) && mine.canonical === canonical.canonical;
  });
  return own ? 'an address of this machine' : undefined;
}

function refused(url: URL, why: string): ToolError {
  return new ToolError('permission_denied', `webfetch does not fetch ${url.href}: ${why}. ${EXEMPT_HINT}`, { host: hostOf(url) });
}

/**
 * What can be decided without a lookup: an exempt host (undefined: it still needs its
 * address), an IP literal (its destination, or refused), a reserved name (refused), or a
 * name to resolve (undefined). Throws `permission_denied` for a refused target.
 */
export function screenTarget(url: URL, allowedHosts: readonly string[]): Destination | undefined {
  const host = hostOf(url);
  const exempt = isAllowedHost(allowedHosts, host, portOf(url));
  const literal = parseIpLiteral(host);
  if (literal && 'invalid' in literal) throw new ToolError('invalid_input', `${host} is not a valid IP address.`);
  if (literal) {
    const why = exempt ? undefined : whyRefused(literal.canonical);
    if (why) throw refused(url, `${literal.canonical} is ${why}`);
    return { address: literal.canonical, family: literal.family, exempt };
  }
  const reserved = exempt ? undefined : reservedName(host);
  if (reserved) throw refused(url, `${host} is ${reserved}`);
  return undefined;
}

/** The checked address to connect to for `url`, or `permission_denied` / `unavailable` saying why there is none. */
export async function destinationOf(url: URL, policy: EgressPolicy, signal: AbortSignal): Promise<Destination> {
  const screened = screenTarget(url, policy.allowedHosts);
  if (screened) return screened;
  const host = hostOf(url);
  const exempt = isAllowedHost(policy.allowedHosts, host, portOf(url));
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await untilAborted(policy.lookup(host, signal), signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
    throw new ToolError('unavailable', `Could not resolve ${host} (${code}): the name does not exist, or there is no network here.`, { host, code });
  }
  if (addresses.length === 0) throw new ToolError('unavailable', `${host} resolves to no address.`, { host });
  if (exempt) return { ...addresses[0]!, exempt, others: addresses.slice(1) };
  // One refused address refuses the name: which of them a connection would reach is not ours to choose.
  for (const { address } of addresses) {
    const why = whyRefused(address);
    if (why) throw refused(url, `${host} resolves to ${address}, ${why}`);
  }
  return { ...addresses[0]!, exempt, others: addresses.slice(1) };
}

