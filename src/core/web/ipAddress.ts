// IP literals for the egress check of the `webfetch` tool. A URL host can spell one address many
// ways (`2130706433`, `0x7f.1`, `127.1`, `[::ffff:127.0.0.1]`, `[64:ff9b::7f00:1]` all reach
// 127.0.0.1), so this module parses hosts exactly as the WHATWG URL standard does and classifies
// the addresses that reach the user's own machine or network (RFC 6890, IANA special-purpose
// registries). Pure functions on strings and bytes: no DNS, no sockets.

/** What a refused address is, for the message: "127.0.0.1 is a loopback address". */
export type AddressClass =
  | 'loopback' | 'private' | 'link-local' | 'unique-local' | 'cgnat' | 'multicast'
  | 'unspecified' | 'metadata' | 'broadcast' | 'reserved' | 'documentation' | 'benchmarking';

const WORDS: Record<AddressClass, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address',
  'unique-local': 'a unique local address',
  cgnat: 'a shared (CGNAT) address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  metadata: 'a cloud metadata address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  documentation: 'a documentation address',
  benchmarking: 'a benchmarking address',
};

/** Human words for each class, e.g. loopback -> 'a loopback address'. */
export function describeClass(cls: AddressClass): string {
  return WORDS[cls];
}

/** A parsed IP literal: 4 or 16 bytes in network order, and the form the URL serializer writes. */
interface IpLiteral { family: 4 | 6; canonical: string; bytes: Uint8Array }

/**
 * Parses an IP literal as a URL host may spell it and returns its canonical form (IPv4 dotted
 * decimal; IPv6 as the URL serializer writes it, without brackets), or undefined when `host` is
 * a name. A host the URL standard would treat as an IP literal but rejects — bracketed or holding a
 * `:` but not valid IPv6 (zone ids included), or ending in a number but not valid IPv4
 * (`256.0.0.1`, `09.1.1.1`, `1.2.3.4.5`) — is `{ invalid: true }`.
 */
export function parseIpLiteral(host: string): IpLiteral | { invalid: true } | undefined {
  if (host.startsWith('[') || host.includes(':')) {
    const inner = host.startsWith('[') ? (host.endsWith(']') ? host.slice(1, -1) : undefined) : host;
    const bytes = inner === undefined ? undefined : parseV6(inner);
    return bytes ? { family: 6, canonical: serializeV6(bytes), bytes } : { invalid: true };
  }
  const name = domainForm(host);
  if (name === undefined || !endsInNumber(name)) return undefined;
  const bytes = parseV4(name);
  return bytes ? { family: 4, canonical: bytes.join('.'), bytes } : { invalid: true };
}

/**
 * The class of an address that must not be fetched, or undefined for an ordinary public unicast
 * address. Takes an address as `dns.lookup` returns it, or any spelling `parseIpLiteral` accepts.
 * @throws TypeError for a string that is not an IP literal
 */
export function classifyAddress(address: string): AddressClass | undefined {
  const ip = parseIpLiteral(address);
  if (ip === undefined || 'invalid' in ip) throw new TypeError(`not an IP address: ${address}`);
  return ip.family === 4 ? classifyV4(ip.bytes) : classifyV6(ip.bytes);
}

// ---- IPv4 (WHATWG URL "ends in a number" checker and IPv4 parser) ----

/** Code points UTS 46 ignores in a domain (soft hyphen, zero-width space, variation selectors, …). */
const IGNORED = /[\u00ad\u200b\u2060\u2064\ufeff\u{1bca0}-\u{1bca3}]|\u034f|[\u180b-\u180d]|\u180f|[\ufe00-\ufe0f]|[\u{e0100}-\u{e01ef}]/gu;

/** The host as the URL parser sees it before the IPv4 check: percent-decoded, width-folded, lowercase. */
function domainForm(host: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(host);
  } catch {
    return undefined; // bad percent-encoding: no address (and no URL host either)
  }
  return decoded.replace(IGNORED, '').normalize('NFKC').replace(/[\u3002\uff0e\uff61]/g, '.').toLowerCase();
}

function endsInNumber(name: string): boolean {
  const parts = name.split('.');
  if (parts.at(-1) === '') {
    if (parts.length === 1) return false;
    parts.pop();
  }
  const last = parts.at(-1) ?? '';
  return /^[0-9]+$/.test(last) || parseV4Number(last) !== undefined;
}

/** One dot-separated part: decimal, octal (leading 0) or hex (0x); undefined on failure. */
function parseV4Number(part: string): number | undefined {
  if (part === '') return undefined;
  let [radix, digits] = [10, part];
  if (part.length >= 2 && part.startsWith('0x')) [radix, digits] = [16, part.slice(2)];
  else if (part.length >= 2 && part.startsWith('0')) [radix, digits] = [8, part.slice(1)];
  if (digits === '') return 0;
  const valid = radix === 16 ? /^[0-9a-f]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  return valid.test(digits) ? parseInt(digits, radix) : undefined;
}

function parseV4(name: string): Uint8Array | undefined {
  const parts = name.split('.');
  if (parts.length > 1 && parts.at(-1) === '') parts.pop(); // one trailing dot
  if (parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = parseV4Number(part);
    if (n === undefined) return undefined;
    numbers.push(n);
  }
  const last = numbers.pop() ?? 0; // the last part fills the remaining bytes
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return undefined;
  const value = numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), last);
  return new Uint8Array([value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]);
}

// ---- IPv6 (same acceptance as the WHATWG IPv6 parser) ----

function parseV6(text: string): Uint8Array | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const words: number[][] = [];
  for (const [h, half] of halves.entries()) {
    const groups = half === '' ? [] : half.split(':');
    const out: number[] = [];
    for (const [g, group] of groups.entries()) {
      const lastGroup = h === halves.length - 1 && g === groups.length - 1;
      if (lastGroup && group.includes('.')) {
        const v4 = group.split('.'); // dotted decimal only: four parts, no leading zeros
        if (v4.length !== 4 || !v4.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
        const [a = 0, b = 0, c = 0, d = 0] = v4.map(Number);
        out.push(a * 256 + b, c * 256 + d);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(group)) {
        out.push(parseInt(group, 16));
      } else {
        return undefined;
      }
    }
    words.push(out);
  }
  const [head = [], tail] = words;
  if (tail === undefined ? head.length !== 8 : head.length + tail.length > 7) return undefined;
  const all = tail === undefined ? head : [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((w, i) => new DataView(bytes.buffer).setUint16(2 * i, w));
  return bytes;
}

/** Lowercase hex groups, the first longest run of two or more zero groups as `::`. */
function serializeV6(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 16);
  const words = Array.from({ length: 8 }, (_, i) => view.getUint16(2 * i));
  let [start, length] = [-1, 1];
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > length) [start, length] = [i, j - i];
    i = Math.max(j, i + 1);
  }
  const hex = (ws: number[]): string => ws.map((w) => w.toString(16)).join(':');
  return start < 0 ? hex(words) : `${hex(words.slice(0, start))}::${hex(words.slice(start + length))}`;
}

// ---- Classification ----

type Rule = { prefix: Uint8Array; bits: number; then: AddressClass | ((bytes: Uint8Array) => AddressClass | undefined) };

function rule(cidr: string, then: Rule['then']): Rule {
  const [address = '', bits = ''] = cidr.split('/');
  const prefix = address.includes(':') ? parseV6(address) : parseV4(address);
  if (!prefix) throw new Error(`bad range ${cidr}`);
  return { prefix, bits: Number(bits), then };
}

function matches(bytes: Uint8Array, { prefix, bits }: Rule): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const mask = (0xff << (8 - Math.min(8, bits - i * 8))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** First match wins: the single metadata addresses come before the ranges that hold them. */
const V4_RULES: Rule[] = [
  rule('0.0.0.0/8', 'unspecified'), rule('10.0.0.0/8', 'private'),
  rule('100.100.100.200/32', 'metadata'), rule('100.64.0.0/10', 'cgnat'), // Alibaba Cloud metadata
  rule('127.0.0.0/8', 'loopback'),
  rule('169.254.169.254/32', 'metadata'), rule('169.254.170.2/32', 'metadata'), rule('169.254.0.0/16', 'link-local'),
  rule('172.16.0.0/12', 'private'),
  rule('192.0.0.192/32', 'metadata'), rule('192.0.0.0/24', 'reserved'), // Oracle Cloud metadata; IETF protocol assignments
  rule('192.0.2.0/24', 'documentation'), rule('192.88.99.0/24', 'reserved'), rule('192.168.0.0/16', 'private'),
  rule('198.18.0.0/15', 'benchmarking'), rule('198.51.100.0/24', 'documentation'), rule('203.0.113.0/24', 'documentation'),
  rule('224.0.0.0/4', 'multicast'), rule('255.255.255.255/32', 'broadcast'), rule('240.0.0.0/4', 'reserved'),
];

/** The class of the IPv4 address at `from` (each byte XOR `xor`); `ifPublic` when it has none. */
const embedded = (from: number, xor = 0, ifPublic?: AddressClass) => (bytes: Uint8Array) =>
  classifyV4(bytes.slice(from, from + 4).map((b) => b ^ xor)) ?? ifPublic;

const V6_RULES: Rule[] = [
  rule('::/128', 'unspecified'), rule('::1/128', 'loopback'),
  rule('::ffff:0:0/96', embedded(12)), // IPv4-mapped
  rule('::ffff:0:0:0/96', embedded(12)), // IPv4-translated (RFC 2765)
  rule('::/96', embedded(12)), // IPv4-compatible (deprecated)
  rule('64:ff9b::/96', embedded(12)), // NAT64 well-known prefix
  rule('64:ff9b:1::/48', embedded(12, 0, 'private')), // local-use NAT64: the operator's own network
  rule('2002::/16', embedded(2)), // 6to4
  rule('2001::/32', embedded(12, 0xff)), // Teredo: the client address, inverted
  rule('2001:2::/48', 'benchmarking'), rule('2001:10::/28', 'reserved'), rule('2001:20::/28', 'reserved'), // ORCHID
  rule('2001:db8::/32', 'documentation'), rule('3fff::/20', 'documentation'), rule('100::/64', 'reserved'), // discard
  rule('fd00:ec2::254/128', 'metadata'), rule('fc00::/7', 'unique-local'), // AWS metadata over IPv6
  rule('fe80::/10', 'link-local'), rule('fec0::/10', 'private'), rule('ff00::/8', 'multicast'),
];

function classifyWith(rules: Rule[], bytes: Uint8Array): AddressClass | undefined {
  const hit = rules.find((r) => matches(bytes, r));
  return typeof hit?.then === 'function' ? hit.then(bytes) : hit?.then;
}

const classifyV4 = (bytes: Uint8Array): AddressClass | undefined => classifyWith(V4_RULES, bytes);
const classifyV6 = (bytes: Uint8Array): AddressClass | undefined => classifyWith(V6_RULES, bytes);
