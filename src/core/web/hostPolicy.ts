// Which hosts webfetch refuses by name alone, and which the person exempted
// (peon.web.allowedHosts). Names that by definition lead to this machine or a private
// network are refused before any lookup: a lookup of a metadata name could already
// leave the machine, and `foo.localhost` may not resolve here at all.
import { domainToASCII } from 'node:url';
import { parseIpLiteral } from './ipAddress';
import { hostOf } from './webUrl';

/** Names (and suffixes, with a leading dot) refused before resolving, with the class they name. */
const RESERVED_NAMES: readonly { readonly name: string; readonly what: string }[] = [
  { name: 'localhost', what: 'a loopback name (RFC 6761)' },
  { name: '.localhost', what: 'a loopback name (RFC 6761)' },
  { name: 'metadata.google.internal', what: 'a cloud metadata name' },
  { name: 'metadata.goog', what: 'a cloud metadata name' },
  { name: 'metadata', what: 'a cloud metadata name' },
  { name: 'instance-data', what: 'a cloud metadata name' },
  { name: '.internal', what: 'a private-use name (.internal)' },
  { name: '.local', what: 'a local-network name (mDNS .local)' },
  { name: '.home.arpa', what: 'a home-network name (.home.arpa)' },
  { name: '.lan', what: 'a local-network name (.lan)' },
  { name: '.intranet', what: 'a private-use name (.intranet)' },
];

/** Why a host name is refused without resolving it, or undefined (compared as hosts are: hostKey). */
export function reservedName(host: string): string | undefined {
  const name = hostKey(host);
  for (const entry of RESERVED_NAMES) {
    if (entry.name.startsWith('.') ? name.endsWith(entry.name) : name === entry.name) return entry.what;
  }
  return undefined;
}

/** One entry of peon.web.allowedHosts, normalised the way URLs are: host, and the port if it names one. */
export interface AllowedHost {
  readonly host: string;
  readonly port?: number;
}

/**
 * Parses an allowedHosts entry (`host`, `host:port`, `[::1]:8080`), or undefined when it
 * is anything else (a scheme, a path, a wildcard, credentials).
 */
export function parseAllowedHost(entry: string): AllowedHost | undefined {
  const text = entry.trim();
  if (text === '' || /[/\\@?#*\s]/.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    return undefined;
  }
  const host = hostOf(url);
  // `host:80` names port 80 even though the URL parser drops a scheme's default port.
  const port = /:(\d+)$/.exec(text)?.[1];
  return port !== undefined && !text.endsWith(']') ? { host, port: Number(port) } : { host };
}

/** Whether the person exempted this host (and port): exactly as written, no subdomains, no wildcards. */
export function isAllowedHost(entries: readonly string[], host: string, port: number): boolean {
  return entries.some((entry) => {
    const allowed = parseAllowedHost(entry);
    return allowed !== undefined && allowed.host === host && (allowed.port === undefined || allowed.port === port);
  });
}

/**
 * A host as rules and grants compare it: lowercase, one trailing dot and IPv6 brackets
 * removed, an IP literal in its canonical spelling, Unicode labels in punycode — so
 * `Example.ORG.` and `example.org`, `[::0:1]` and `::1`, `bücher.example` and
 * `xn--bcher-kva.example` are each one host.
 */
export function hostKey(host: string): string {
  const bare = host.trim().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
  const literal = parseIpLiteral(bare.toLowerCase());
  if (literal && !('invalid' in literal)) return literal.canonical;
  // A name written in Unicode (`bücher.example`, `*.bücher.example`, `STRAẞE.de`) is compared in the punycode a URL
  // carries, mapped as the URL parser maps it (UTS 46 does its own case folding: ẞ is ss); glob labels stay as written.
  return bare
    .split('.')
    .map((label) => (/^[ -~]*$/.test(label) || /[*?[\]{}!]/.test(label) ? label : domainToASCII(label) || label).toLowerCase())
    .join('.');
}
