// The web tools' pure parts: allowed-host entries, reserved names, proxy settings and
// NO_PROXY, encodings, media types.
import { describe, expect, test } from 'vitest';
import { decodeText } from '../../../src/core/web/charset';
import { hostMatches } from '../../../src/core/permissions/patterns';
import { hostKey, isAllowedHost, parseAllowedHost, reservedName } from '../../../src/core/web/hostPolicy';
import { bodyKind } from '../../../src/core/web/mediaType';
import { urlConcerns } from '../../../src/core/web/outboundData';
import { proxyFor, proxyFromEnv } from '../../../src/core/web/proxy';
import { parseWebUrl, shortUrl, unicodeHost } from '../../../src/core/web/webUrl';
import { ToolError } from '../../../src/core/tools/toolError';

describe('peon.web.allowedHosts entries', () => {
  test('host, host:port and [v6]:port parse; schemes, paths, wildcards and credentials do not', () => {
    expect(parseAllowedHost('localhost:8080')).toEqual({ host: 'localhost', port: 8080 });
    expect(parseAllowedHost('Docs.Example.ORG')).toEqual({ host: 'docs.example.org' });
    expect(parseAllowedHost('[::1]:3000')).toEqual({ host: '::1', port: 3000 });
    expect(parseAllowedHost('[::1]')).toEqual({ host: '::1' });
    expect(parseAllowedHost('example.org:80')).toEqual({ host: 'example.org', port: 80 });
    for (const bad of ['', 'http://example.org', 'example.org/path', '*.example.org', 'user@example.org', 'a b', 'example.org:99999']) expect(parseAllowedHost(bad), bad).toBeUndefined();
  });

  test('matching is exact: no subdomains; a port entry covers only its port', () => {
    const entries = ['docs.internal', '127.0.0.1:8080'];
    expect(isAllowedHost(entries, 'docs.internal', 443)).toBe(true);
    expect(isAllowedHost(entries, 'a.docs.internal', 443)).toBe(false);
    expect(isAllowedHost(entries, '127.0.0.1', 8080)).toBe(true);
    expect(isAllowedHost(entries, '127.0.0.1', 8081)).toBe(false);
    expect(isAllowedHost(['not valid/entry'], 'not', 80)).toBe(false);
  });

  test('host rules match hosts as hosts: case, a trailing dot, brackets and the IPv6 spelling', () => {
    expect(hostMatches('Blocked.Example.Test', 'blocked.example.test.')).toBe(true);
    expect(hostMatches('*.python.org', 'docs.python.org.')).toBe(true);
    expect(hostMatches('*.python.org', 'python.org.evil.test')).toBe(false);
    expect(hostMatches('[2001:db8::0:1]', '2001:db8:0::1')).toBe(true);
    expect(hostMatches('2001:db8::1', '2001:db8::2')).toBe(false);
    expect(hostKey('[::FFFF:127.0.0.1]')).toBe('::ffff:7f00:1');
  });

  test('reserved names are refused by name', () => {
    expect(reservedName('a.localhost')).toContain('loopback');
    expect(reservedName('metadata.google.internal')).toContain('metadata');
    expect(reservedName('metadata.google.internal.')).toContain('metadata');
    expect(reservedName('nas.local')).toContain('mDNS');
    expect(reservedName('router.home.arpa')).toContain('home');
    expect(reservedName('example.org')).toBeUndefined();
    expect(reservedName('localhost.example.org')).toBeUndefined();
    expect(reservedName('internal.example.org')).toBeUndefined();
  });
});

describe('URLs', () => {
  test('the WHATWG parser normalises IPv4 spellings before the check sees them', () => {
    expect(parseWebUrl('http://0x7f.1/').hostname).toBe('127.0.0.1');
    expect(parseWebUrl('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(parseWebUrl('  https://example.org/a#frag ').href).toBe('https://example.org/a');
  });

  test('a punycode host reads back in Unicode; short URLs drop the scheme', () => {
    const url = parseWebUrl('https://bücher.example/katalog');
    expect(url.hostname).toBe('xn--bcher-kva.example');
    expect(unicodeHost(url)).toBe('bücher.example');
    expect(unicodeHost(parseWebUrl('https://example.org/'))).toBeUndefined();
    expect(shortUrl(parseWebUrl('https://example.org/'))).toBe('example.org');
    expect(shortUrl(parseWebUrl('https://example.org/docs?x=1'))).toBe('example.org/docs?x=1');
    expect(shortUrl(parseWebUrl(`https://example.org/${'a'.repeat(200)}`))).toHaveLength(80);
  });
});

describe('proxy settings', () => {
  test('the environment: lowercase wins, ALL_PROXY fills in, NO_PROXY splits on commas and spaces', () => {
    expect(proxyFromEnv({})).toBeUndefined();
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', NO_PROXY: 'a.org, .b.org  c:81' })).toEqual({ https: 'http://lower:2', noProxy: ['a.org', '.b.org', 'c:81'] });
    expect(proxyFromEnv({ ALL_PROXY: 'http://all:3' })).toEqual({ https: 'http://all:3', http: 'http://all:3' });
  });

  test('NO_PROXY as curl reads it: a name and its subdomains, a leading dot, host:port, *', () => {
    const settings = { https: 'proxy:3128', http: 'http://proxy:3128', noProxy: ['example.org', '.corp.test', 'svc:8443'] };
    expect(proxyFor(new URL('https://example.org/'), settings)).toBeUndefined();
    expect(proxyFor(new URL('https://api.example.org/'), settings)).toBeUndefined();
    expect(proxyFor(new URL('https://notexample.org/'), settings)?.href).toBe('http://proxy:3128/');
    expect(proxyFor(new URL('https://x.corp.test/'), settings)).toBeUndefined();
    expect(proxyFor(new URL('https://svc:8443/'), settings)).toBeUndefined();
    expect(proxyFor(new URL('https://svc/'), settings)?.host).toBe('proxy:3128');
    expect(proxyFor(new URL('http://anything/'), { http: 'http://p:1', noProxy: ['*'] })).toBeUndefined();
  });

  test('a SOCKS or malformed proxy is unavailable, said plainly', () => {
    expect(() => proxyFor(new URL('https://example.org/'), { https: 'socks5://127.0.0.1:1080' })).toThrow(/socks5:/);
    expect(() => proxyFor(new URL('https://example.org/'), { https: 'http://[bad' })).toThrow(ToolError);
  });
});

describe('encodings', () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

  test('Windows-1252, whatever Node 20 decodes it as: 0x80–0x9F are the curly quotes, dashes and euro sign', () => {
    const text = decodeText(bytes('caf', [0xe9, 0x20, 0x93], 'q', [0x94, 0x20, 0x96, 0x20, 0x80, 0x81]), 'text/plain; charset=windows-1252', 'text');
    expect(text).toEqual({ text: 'café “q” – €\u0081', encoding: 'windows-1252' });
    // iso-8859-1 and us-ascii are windows-1252 by the WHATWG encoding standard.
    expect(decodeText(bytes([0x93]), 'text/html; charset=ISO-8859-1', 'html').text).toBe('“');
  });

  test('the header beats the <meta>, a BOM beats both, and a <meta> is found in single or double quotes', () => {
    const sjis = Buffer.from('93fa967b', 'hex'); // 日本
    expect(decodeText(Buffer.concat([Buffer.from("<meta charset='shift_jis'>"), sjis]), undefined, 'html').text).toContain('日本');
    expect(decodeText(Buffer.concat([Buffer.from('<meta charset="shift_jis">'), Buffer.from('é')]), 'text/html; charset=utf-8', 'html').encoding).toBe('utf-8');
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é')]), 'text/html; charset=windows-1252', 'html')).toEqual({ text: 'é', encoding: 'utf-8' });
  });

  test('an XML declaration names the encoding; undeclared bytes are UTF-8 when valid, else Windows-1252', () => {
    expect(decodeText(Buffer.concat([Buffer.from('<?xml version="1.0" encoding="EUC-KR"?><a>'), Buffer.from('c7d1b1b9', 'hex'), Buffer.from('</a>')]), 'application/xml', 'xml').text).toContain('한국');
    expect(decodeText(Buffer.from('naïve', 'utf8'), 'text/plain', 'text').encoding).toBe('utf-8');
    expect(decodeText(bytes('na', [0xef], 've'), 'text/plain', 'text')).toEqual({ text: 'naïve', encoding: 'windows-1252' });
  });

  test('a body cut inside a UTF-8 character is still UTF-8; an unknown label says so and falls back', () => {
    const cut = Buffer.from('日本', 'utf8').subarray(0, 4);
    expect(decodeText(cut, 'text/plain', 'text').encoding).toBe('utf-8');
    const unknown = decodeText(Buffer.from('plain'), 'text/plain; charset=x-made-up', 'text');
    expect(unknown).toMatchObject({ text: 'plain', encoding: 'utf-8' });
    expect(unknown.note).toContain('x-made-up');
  });
});

describe('media types', () => {
  test('the header decides, unless the bytes are a known binary format; untyped bodies are sniffed', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]);
    expect(bodyKind('text/html; charset=utf-8', Buffer.from('<p>'))).toEqual({ kind: 'html', type: 'text/html' });
    expect(bodyKind('application/vnd.api+json', Buffer.from('{}'))).toEqual({ kind: 'text', type: 'application/vnd.api+json' });
    expect(bodyKind('application/atom+xml', Buffer.from('<feed/>'))).toEqual({ kind: 'xml', type: 'application/atom+xml' });
    expect(bodyKind('text/html', png)).toEqual({ kind: 'binary', type: 'text/html' });
    expect(bodyKind(undefined, png)).toEqual({ kind: 'binary', type: 'image/png' });
    expect(bodyKind('application/pdf', Buffer.from('%PDF-1.7'))).toMatchObject({ kind: 'binary' });
    expect(bodyKind('font/woff2', Buffer.from('wOF2'))).toMatchObject({ kind: 'binary' });
    expect(bodyKind(undefined, Buffer.from('  <!DOCTYPE html><p>'))).toMatchObject({ kind: 'html' });
    expect(bodyKind('application/octet-stream', Buffer.from('plain words'))).toMatchObject({ kind: 'text' });
    expect(bodyKind(undefined, Buffer.from([1, 0, 2]))).toMatchObject({ kind: 'binary' });
  });
});

describe('what a request would carry out', () => {
  const concerns = (url: string) => urlConcerns(new URL(url));
  const encoded = Buffer.from('DATABASE_URL=postgres://admin:hunter2@db.internal:5432/prod\nSTRIPE_KEY=rk_test_0000').toString('base64');

  test('ordinary links carry nothing: commit hashes, document ids, slugs, video ids, maps, SRI hashes', () => {
    for (const url of [
      'https://github.com/microsoft/vscode/commit/3f6c9b3a9c2d4e1f0a8b7c6d5e4f3a2b1c0d9e8f',
      'https://docs.google.com/document/d/1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ_abcdefg/edit',
      'https://www.example.org/blog/how-to-configure-the-database-connection-pool-in-spring-boot-applications-for-production',
      'https://stackoverflow.com/questions/12345678/why-does-my-regex-not-match-unicode-characters-in-javascript',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'https://www.google.com/maps/place/Eiffel+Tower/@48.8583701,2.2944813,17z/data=!3m1!4b1!4m6!3m5!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0',
      'https://cdn.jsdelivr.net/npm/pkg@1.0.0/dist/index.min.js?integrity=sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC',
      'https://my-load-balancer-1234567890.us-west-2.elb.amazonaws.com/health',
    ]) expect(concerns(url), url).toEqual([]);
  });

  test('credentials, encoded file contents, data in a DNS label and oversized payloads are named', () => {
    expect(concerns('https://evil.example/?k=AKIAIOSFODNN7EXAMPLE')).toEqual(['the query string holds what looks like an AWS access key: it would leave the machine']);
    expect(concerns(`https://evil.example/collect?d=${encodeURIComponent(encoded)}`)[0]).toMatch(/^the query string carries a \d+-character run of encoded data/);
    expect(concerns(`https://evil.example/${encoded.replace(/\//g, '_')}`)[0]).toMatch(/^the path carries a/);
    expect(concerns('https://evil.example/log?token=ghp_abcdefghijklmnopqrstuvwxyz0123456789')[0]).toContain('a GitHub token');
    expect(concerns('https://evil.example/?q=password%3Dhunter22')[0]).toContain('a password assignment');
    expect(concerns('https://evil.example/?jwt=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U')[0]).toContain('a JSON Web Token');
    expect(concerns('https://akiaiosfodnn7examplewjalrxutnfemik7mdeng.evil.example/')[0]).toMatch(/^the host name has a 40-character label/);
    expect(concerns(`https://evil.example/x?${'note+'.repeat(220)}`)).toEqual([expect.stringMatching(/^the path and query are 1\d{3} characters long/)]);
  });
});
