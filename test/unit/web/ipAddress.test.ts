// The IP-literal parser and classifier behind the webfetch egress check: every spelling of an
// address must parse to what the URL parser makes of it, and every local range must be refused.
import { describe, expect, test } from 'vitest';
import { classifyAddress, describeClass, parseIpLiteral, type AddressClass } from '../../../src/core/web/ipAddress';

/** What `new URL` makes of a host: its hostname without brackets, or 'rejected'. */
function urlHost(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return 'rejected';
  }
}

/** The canonical form parseIpLiteral gives, or what it says instead. */
function canonical(host: string): string {
  const ip = parseIpLiteral(host);
  return ip === undefined ? 'name' : 'invalid' in ip ? 'invalid' : ip.canonical;
}

/** A deterministic pseudo-random generator (mulberry32), so every run tests the same addresses. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const ALL_CLASSES: AddressClass[] = ['loopback', 'private', 'link-local', 'unique-local', 'cgnat', 'multicast', 'unspecified', 'metadata', 'broadcast', 'reserved', 'documentation', 'benchmarking'];

describe('describeClass', () => {
  test('gives the words for every class', () => {
    expect(Object.fromEntries(ALL_CLASSES.map((c) => [c, describeClass(c)]))).toEqual({
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
    });
  });
});

describe('parseIpLiteral: the spellings of a local address', () => {
  test.each([
    ['2130706433', '127.0.0.1', 'loopback'],
    ['0x7f.1', '127.0.0.1', 'loopback'],
    ['0177.0.0.1', '127.0.0.1', 'loopback'],
    ['127.1', '127.0.0.1', 'loopback'],
    ['0x7F.0.0.1', '127.0.0.1', 'loopback'],
    ['0x7f000001', '127.0.0.1', 'loopback'],
    ['017700000001', '127.0.0.1', 'loopback'],
    ['127.0.0.1.', '127.0.0.1', 'loopback'],
    ['[::1]', '::1', 'loopback'],
    ['::1', '::1', 'loopback'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1', 'loopback'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1', 'loopback'],
    ['[0:0:0:0:0:ffff:127.0.0.1]', '::ffff:7f00:1', 'loopback'],
    ['[64:ff9b::127.0.0.1]', '64:ff9b::7f00:1', 'loopback'],
    ['[::]', '::', 'unspecified'],
    ['[0::0]', '::', 'unspecified'],
    ['[::127.0.0.1]', '::7f00:1', 'loopback'],
    ['[2002:7f00:1::]', '2002:7f00:1::', 'loopback'],
    ['[fd00::1]', 'fd00::1', 'unique-local'],
    ['[FE80::1]', 'fe80::1', 'link-local'],
    ['169.254.169.254', '169.254.169.254', 'metadata'],
    ['0251.0376.0251.0376', '169.254.169.254', 'metadata'],
    ['0xa9fea9fe', '169.254.169.254', 'metadata'],
    ['2852039166', '169.254.169.254', 'metadata'],
    ['10.0.0.1', '10.0.0.1', 'private'],
    ['100.64.0.1', '100.64.0.1', 'cgnat'],
    ['0.0.0.0', '0.0.0.0', 'unspecified'],
    ['0', '0.0.0.0', 'unspecified'],
    ['0x', '0.0.0.0', 'unspecified'],
    ['127.0.0.%31', '127.0.0.1', 'loopback'],
    ['１２７．０．０．１', '127.0.0.1', 'loopback'],
    ['127。0。0。1', '127.0.0.1', 'loopback'],
    ['0ｘ7f.1', '127.0.0.1', 'loopback'],
    ['127.0.0.\u00ad1', '127.0.0.1', 'loopback'],
  ] as const)('%s is %s, %s, as the URL parser has it', (host, expected, cls) => {
    expect(canonical(host)).toBe(expected);
    expect(urlHost(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)).toBe(expected);
    expect(classifyAddress(host)).toBe(cls);
  });

  test('code points the URL parser ignores in a host are ignored too', () => {
    const ignored = [0xad, 0x34f, 0x180b, 0x180d, 0x180f, 0x200b, 0x2060, 0x2064, 0xfe00, 0xfe0f, 0xfeff, 0x1bca0, 0x1bca3, 0xe0100, 0xe01ef];
    const hosts = ignored.map((cp) => `0x7f.0.0.${String.fromCodePoint(cp)}1`);
    expect(hosts.map(urlHost)).toEqual(hosts.map(() => '127.0.0.1'));
    expect(hosts.map(canonical)).toEqual(hosts.map(() => '127.0.0.1'));
  });

  test('gives the address bytes in network order', () => {
    const v4 = parseIpLiteral('0x7f.1');
    const v6 = parseIpLiteral('[::ffff:127.0.0.1]');
    expect(v4).toEqual({ family: 4, canonical: '127.0.0.1', bytes: new Uint8Array([127, 0, 0, 1]) });
    expect(v6).toEqual({ family: 6, canonical: '::ffff:7f00:1', bytes: new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1]) });
  });
});

describe('parseIpLiteral agrees with the URL parser', () => {
  const next = random(6890);
  const byte = (): number => Math.floor(next() * 256);

  /** Boundary addresses of every range, plus random ones. */
  const v4Addresses: number[][] = [
    [0, 0, 0, 0], [127, 0, 0, 1], [255, 255, 255, 255], [169, 254, 169, 254], [10, 0, 0, 0], [172, 31, 255, 255],
    [100, 64, 0, 0], [192, 168, 0, 1], [8, 8, 8, 8], [1, 0, 0, 1], [0, 0, 0, 255], [0, 255, 0, 0],
    ...Array.from({ length: 60 }, () => [byte(), byte(), byte(), byte()]),
  ];

  /** Every way the WHATWG IPv4 parser lets a host spell a, b, c, d. */
  function v4Spellings([a = 0, b = 0, c = 0, d = 0]: number[]): string[] {
    const value = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
    const oct = (n: number): string => `0${n.toString(8)}`;
    const hex = (n: number): string => `0x${n.toString(16)}`;
    return [
      `${a}.${b}.${c}.${d}`, `${a}.${b}.${c}.${d}.`, `${value}`, hex(value), hex(value).toUpperCase(), oct(value),
      [a, b, c, d].map(oct).join('.'), [a, b, c, d].map(hex).join('.'), `0x000${a.toString(16)}.${b}.${c}.${d}`,
      `${a}.${value & 0xffffff}`, `${a}.${b}.${c * 256 + d}`, `${hex(a)}.${oct(b)}.${c * 256 + d}`, `${a}.${hex(value & 0xffffff)}.`,
    ];
  }

  test.each(v4Addresses.map((a) => [a.join('.'), a]))('every spelling of %s', (dotted, address) => {
    const spellings = v4Spellings(address);
    expect(spellings.map(urlHost)).toEqual(spellings.map(() => dotted));
    expect(spellings.map(canonical)).toEqual(spellings.map(() => dotted));
    const cls = classifyAddress(dotted);
    expect(spellings.map(classifyAddress)).toEqual(spellings.map(() => cls));
  });

  /** Random IPv6 words with runs of zeros, so compression is exercised. */
  const v6Addresses: number[][] = [
    [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 1], [1, 0, 0, 1, 0, 0, 0, 1], [1, 0, 0, 2, 0, 0, 3, 4],
    [0, 0, 1, 0, 0, 0, 0, 0], [0xfe80, 0, 0, 0, 0, 0, 0, 0], [1, 2, 3, 4, 5, 6, 7, 0], [0, 1, 2, 3, 4, 5, 6, 7],
    [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1], [0x2001, 0xdb8, 0, 0, 1, 0, 0, 1],
    ...Array.from({ length: 60 }, () => Array.from({ length: 8 }, () => (next() < 0.45 ? 0 : next() < 0.3 ? byte() : Math.floor(next() * 0x10000)))),
  ];

  /** Uncompressed, padded, uppercase, compressed at each zero run, and with a dotted IPv4 tail. */
  function v6Spellings(words: number[]): string[] {
    const plain = words.map((w) => w.toString(16));
    const out = [plain.join(':'), words.map((w) => w.toString(16).padStart(4, '0').toUpperCase()).join(':')];
    for (let i = 0; i < 8; i++) {
      for (let j = i + 1; j <= 8 && words[j - 1] === 0; j++) out.push(`${plain.slice(0, i).join(':')}::${plain.slice(j).join(':')}`);
    }
    const [g6 = 0, g7 = 0] = words.slice(6);
    out.push(`${plain.slice(0, 6).join(':')}:${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`);
    return out;
  }

  test.each(v6Addresses.map((w) => [w.map((x) => x.toString(16)).join(':'), w]))('every spelling of %s', (_, words) => {
    const spellings = v6Spellings(words);
    const expected = urlHost(`[${spellings[0]}]`);
    expect(expected).not.toBe('rejected');
    expect(spellings.map((s) => urlHost(`[${s}]`))).toEqual(spellings.map(() => expected));
    expect(spellings.map((s) => canonical(`[${s}]`))).toEqual(spellings.map(() => expected));
    expect(spellings.map(canonical)).toEqual(spellings.map(() => expected));
    expect(canonical(expected)).toBe(expected);
    const cls = classifyAddress(expected);
    expect(spellings.map(classifyAddress)).toEqual(spellings.map(() => cls));
  });

  test('the first longest run of zeros is the one compressed', () => {
    expect(canonical('[1:0:0:2:0:0:3:4]')).toBe('1::2:0:0:3:4');
    expect(canonical('[1:0:0:2:0:0:0:4]')).toBe('1:0:0:2::4');
    expect(canonical('[1:0:2:3:4:5:6:7]')).toBe('1:0:2:3:4:5:6:7');
    expect(urlHost('[1:0:0:2:0:0:3:4]')).toBe('1::2:0:0:3:4');
  });

  // Hosts the URL parser rejects that look like addresses (end in a number, or bracketed) are invalid.
  test.each([
    '256.0.0.1', '1.2.3.4.5', '1.2.3.4.0', '0.0.0.0.0', '0x100000000', '09.1.1.1', '08', '4294967296', '1.256.0.0', '1.2.65536', '1.16777216',
    '0.0.0.0x100', '1..2', '.1', 'a.1', 'example.0x', 'example.123', '0x7f.0x1g.0.1', '１２７.０.０.２５６',
    '[::1', '[1:2:3:4:5:6:7:8:9]', '[1:2:3:4:5:6:7:8::]', '[:::]', '[1::2::3]', '[::12345]', '[::1.2.3.04]',
    '[::1.2.3]', '[::1.2.3.4.5]', '[::256.0.0.1]', '[1.2.3.4::]', '[fe80::1%25eth0]', '[fe80::1%eth0]', '[::g]',
    '[127.0.0.1]', '[]', '[example.com]', '[:1]', '[1:]', '[1:2:3:4:5:6:7:1.2.3.4]', '[::0x7f.1]', '[::%31]',
  ])('%s is invalid, and new URL rejects it', (host) => {
    expect(urlHost(host)).toBe('rejected');
    expect(parseIpLiteral(host)).toEqual({ invalid: true });
    expect(() => classifyAddress(host)).toThrow(TypeError);
  });

  test.each(['fe80::1%eth0', 'fe80::1%25eth0', '::1::', '1:2', 'example.com:80', '::ffff:1.2.3.256'])('unbracketed %s holds a colon but is no IPv6 address: invalid', (host) => {
    expect(parseIpLiteral(host)).toEqual({ invalid: true });
  });

  test.each(['example.com', 'localhost', '1.2.3.4.example', '0x7f.example', 'example', '1a', '0x7g', '1.2.3.4..', '..', 'xn--bcher-kva.de'])(
    '%s is a name: undefined, and new URL keeps it as a name',
    (host) => {
      expect(parseIpLiteral(host)).toBeUndefined();
      expect(urlHost(host)).toBe(host);
      expect(() => classifyAddress(host)).toThrow(TypeError);
    },
  );

  // Not an IP literal is undefined even where the URL parser rejects the host for another reason.
  test.each(['a b', 'a<b', '%zz', '', 'xn--'])('%j is no IP literal: undefined, though new URL rejects it', (host) => {
    expect(urlHost(host)).toBe('rejected');
    expect(parseIpLiteral(host)).toBeUndefined();
  });
});

describe('classifyAddress', () => {
  const cases: [string, AddressClass | undefined][] = [
    // 0.0.0.0/8, 10/8
    ['0.0.0.0', 'unspecified'], ['0.255.255.255', 'unspecified'], ['1.0.0.0', undefined],
    ['9.255.255.255', undefined], ['10.0.0.0', 'private'], ['10.255.255.255', 'private'], ['11.0.0.0', undefined],
    // 100.64/10 with Alibaba's metadata inside it
    ['100.63.255.255', undefined], ['100.64.0.0', 'cgnat'], ['100.127.255.255', 'cgnat'], ['100.128.0.0', undefined],
    ['100.100.100.200', 'metadata'], ['100.100.100.199', 'cgnat'], ['100.100.100.201', 'cgnat'],
    // 127/8
    ['126.255.255.255', undefined], ['127.0.0.0', 'loopback'], ['127.0.0.1', 'loopback'], ['127.255.255.255', 'loopback'], ['128.0.0.0', undefined],
    // 169.254/16 with AWS metadata inside it
    ['169.253.255.255', undefined], ['169.254.0.0', 'link-local'], ['169.254.255.255', 'link-local'], ['169.255.0.0', undefined],
    ['169.254.169.254', 'metadata'], ['169.254.170.2', 'metadata'], ['169.254.169.253', 'link-local'], ['169.254.170.3', 'link-local'],
    // 172.16/12
    ['172.15.255.255', undefined], ['172.16.0.0', 'private'], ['172.31.255.255', 'private'], ['172.32.0.0', undefined],
    // 192.0.0/24 with Oracle's metadata inside it, 192.0.2/24, 192.88.99/24, 192.168/16
    ['191.255.255.255', undefined], ['192.0.0.0', 'reserved'], ['192.0.0.255', 'reserved'], ['192.0.0.192', 'metadata'], ['192.0.1.0', undefined],
    ['192.0.2.0', 'documentation'], ['192.0.2.255', 'documentation'], ['192.0.3.0', undefined],
    ['192.88.98.255', undefined], ['192.88.99.0', 'reserved'], ['192.88.99.255', 'reserved'], ['192.88.100.0', undefined],
    ['192.167.255.255', undefined], ['192.168.0.0', 'private'], ['192.168.1.1', 'private'], ['192.168.255.255', 'private'], ['192.169.0.0', undefined],
    // 198.18/15, 198.51.100/24, 203.0.113/24
    ['198.17.255.255', undefined], ['198.18.0.0', 'benchmarking'], ['198.19.255.255', 'benchmarking'], ['198.20.0.0', undefined],
    ['198.51.99.255', undefined], ['198.51.100.0', 'documentation'], ['198.51.100.255', 'documentation'], ['198.51.101.0', undefined],
    ['203.0.112.255', undefined], ['203.0.113.0', 'documentation'], ['203.0.113.255', 'documentation'], ['203.0.114.0', undefined],
    // 224/4, 240/4, the broadcast address
    ['223.255.255.255', undefined], ['224.0.0.0', 'multicast'], ['224.0.0.251', 'multicast'], ['239.255.255.255', 'multicast'],
    ['240.0.0.0', 'reserved'], ['250.1.2.3', 'reserved'], ['255.255.255.254', 'reserved'], ['255.255.255.255', 'broadcast'],
    // public IPv4
    ['8.8.8.8', undefined], ['1.1.1.1', undefined], ['93.184.216.34', undefined], ['223.255.255.254', undefined],
    // IPv6: unspecified, loopback, embedded IPv4 (mapped, translated, compatible, NAT64)
    ['::', 'unspecified'], ['::1', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'], ['::ffff:127.0.0.1', 'loopback'], ['::ffff:10.0.0.1', 'private'], ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:0.0.0.0', 'unspecified'], ['::ffff:8.8.8.8', undefined], ['::ffff:c0a8:101', 'private'],
    ['::ffff:0:127.0.0.1', 'loopback'], ['::ffff:0:a00:1', 'private'], ['::ffff:0:808:808', undefined],
    ['::127.0.0.1', 'loopback'], ['::10.1.2.3', 'private'], ['::8.8.8.8', undefined], ['::2', 'unspecified'],
    ['64:ff9b::7f00:1', 'loopback'], ['64:ff9b::192.168.0.1', 'private'], ['64:ff9b::a9fe:a9fe', 'metadata'], ['64:ff9b::8.8.8.8', undefined],
    ['64:ff9b:1::808:808', 'private'], ['64:ff9b:1::7f00:1', 'loopback'], ['64:ff9b:1:ffff::8.8.8.8', 'private'], ['64:ff9b:2::808:808', undefined],
    // 6to4 and Teredo (the client address inverted in the last 32 bits)
    ['2002:7f00:1::', 'loopback'], ['2002:a00:1::1', 'private'], ['2002:c0a8:101::1', 'private'], ['2002:a9fe:a9fe::', 'metadata'],
    ['2002:808:808::', undefined], ['2002:808:808:ffff::1', undefined],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'documentation'],
    ['2001::f5ff:fffe', 'private'], ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', undefined], ['2001::ffff:ffff', 'unspecified'],
    // fe80::/10, fec0::/10, fc00::/7 with AWS metadata inside it, ff00::/8
    ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['fe80::', 'link-local'], ['fe80::1', 'link-local'],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'], ['fec0::', 'private'], ['fec0::1', 'private'], ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['fc00::', 'unique-local'], ['fd00::1', 'unique-local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'], ['fd00:ec2::254', 'metadata'], ['fd00:ec2::253', 'unique-local'],
    ['ff00::', 'multicast'], ['ff02::1', 'multicast'], ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
    // 100::/64, 2001:db8::/32, 3fff::/20, 2001:2::/48, ORCHID 2001:10::/28 and 2001:20::/28
    ['100::', 'reserved'], ['100::ffff:ffff:ffff:ffff', 'reserved'], ['100:0:0:1::', undefined], ['ff::ffff', undefined],
    ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['2001:db8::', 'documentation'], ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'], ['2001:db9::', undefined],
    ['3fff::', 'documentation'], ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'], ['3fff:1000::', undefined], ['3ffe:ffff::', undefined],
    ['2001:1:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['2001:2::', 'benchmarking'], ['2001:2:0:ffff::1', 'benchmarking'], ['2001:2:1::', undefined],
    ['2001:f:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['2001:10::', 'reserved'], ['2001:1f:ffff::', 'reserved'],
    ['2001:20::', 'reserved'], ['2001:2f:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'], ['2001:30::', undefined],
    // public IPv6
    ['2606:4700::1111', undefined], ['[2a00:1450:4001::200e]', undefined], ['2001:4860:4860::8888', undefined], ['2001:1::1', undefined], ['2a01::', undefined],
  ];

  test.each(cases)('%s -> %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  test('every class is reached', () => {
    expect(new Set(cases.map(([, cls]) => cls))).toEqual(new Set([...ALL_CLASSES, undefined]));
  });

  test('throws TypeError for what is not an IP literal', () => {
    for (const host of ['example.com', 'localhost', '', '256.0.0.1', 'fe80::1%eth0', '[::1']) {
      expect(() => classifyAddress(host), host).toThrow(TypeError);
    }
    expect(() => classifyAddress('example.com')).toThrow('not an IP address: example.com');
  });
});
