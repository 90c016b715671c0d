// The web tools' pure parts: allowed-host entries, reserved names, proxy settings and
// NO_PROXY, encodings, media types.
import { describe, expect, test } from 'vitest';
import { decodeText } from '../../../src/core/web/charset';
import { hostMatches } from '../../../src/core/permissions/patterns';
import { hostKey, isAllowedHost, parseAllowedHost, reservedName } from '../../../src/core/web/hostPolicy';
import { bodyKind } from '../../../src/core/web/mediaType';
import { lenientDecode, urlConcerns, withoutTracking } from '../../../src/core/web/outboundData';
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
    expect(hostMatches('bücher.example', 'xn--bcher-kva.example')).toBe(true);
    expect(hostMatches('*.bücher.example', 'shop.xn--bcher-kva.example')).toBe(true);
    expect(hostMatches('STRAẞE.de', new URL('http://STRAẞE.de/').hostname)).toBe(true);
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

  /** Developer URLs as people paste them (a hostile review's list): none may ask. Tracking parameters go before the check, as before the request. */
  const ORDINARY = [
      'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/prototype/reduce',
      'https://docs.python.org/3/library/asyncio-eventloop.html#asyncio.loop.run_in_executor',
      'https://github.com/microsoft/vscode/blob/2b2ec2bd7a6d7fc0dfac5aea8e7ec6a5bd7c2e8b/src/vs/workbench/contrib/terminal/browser/xterm/xtermTerminal.ts#L120',
      'https://github.com/nodejs/node/commit/8a3d1ef0a7e9bdbb8b3a9e6c0a1f0e9c1f4b6d7e',
      'https://github.com/nodejs/node/compare/8a3d1ef0a7e9bdbb8b3a9e6c0a1f0e9c1f4b6d7e...0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c',
      'https://stackoverflow.com/questions/14220321/how-do-i-return-the-response-from-an-asynchronous-call',
      'https://registry.npmjs.org/@types/node',
      'https://registry.npmjs.org/react/-/react-18.2.0.tgz',
      'https://crates.io/api/v1/crates/serde',
      'https://pkg.go.dev/golang.org/x/net@v0.17.0/http2',
      'https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-presigned-url.html',
      'https://example.com/blog/post?utm_source=newsletter&utm_medium=email&utm_campaign=2024_q1_launch_announcement&utm_content=cta_button_v2',
      'https://www.google.com/search?q=vitest+worker+threads&oq=vitest+worker+threads&gs_lcrp=EgZjaHJvbWUyBggAEEUYOTIGCAEQRRhA0gEIMzE0MmowajeoAgCwAgA&sourceid=chrome&ie=UTF-8',
      'https://docs.google.com/document/d/1aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789_abcdEFGH/edit',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI',
      'https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/css/bootstrap.min.css',
      'https://pypi.org/project/requests/',
      'https://files.pythonhosted.org/packages/70/8e/0e2d847013cb52cd35b38c009bb167a1a26b2ce6cd6965bf26b47bc0bf44/requests-2.31.0-py3-none-any.whl',
      'https://raw.githubusercontent.com/torvalds/linux/e8f897f4afef0031fe618a8e94127a0934896aba/README',
      'https://github.com/user-attachments/assets/8b2a7a6e-7e43-4c4b-9c1a-7b9f1e5d3c2a',
      'https://objects.githubusercontent.com/github-production-release-asset-2e65be/123/abc?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAVCODYLSA53PQK4ZA%2F20240101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20240101T000000Z&X-Amz-Expires=300&X-Amz-Signature=0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9&X-Amz-SignedHeaders=host',
      'https://www.npmjs.com/package/@anthropic-ai/sdk',
      'https://learn.microsoft.com/en-us/dotnet/api/system.threading.tasks.task-1.configureawait?view=net-8.0',
      'https://en.wikipedia.org/wiki/Secret_sharing',
      'https://example.com/api?access_token=',
      'https://docs.github.com/en/rest/apps/apps?apiVersion=2022-11-28#create-an-installation-access-token-for-an-app',
      'https://developer.android.com/reference/android/app/Activity#onCreate(android.os.Bundle)',
      'https://nextjs.org/docs/app/building-your-application/routing/route-handlers',
      'https://github.com/vitest-dev/vitest/issues?q=is%3Aissue+is%3Aopen+worker+threads+sort%3Aupdated-desc',
      'https://www.bing.com/search?q=node+worker+threads&form=QBLH&sp=-1&pq=node+worker&sc=10-11&qs=n&sk=&cvid=8F1B5E7B0C3A4E9D9A2B8C7D6E5F4A3B',
      'https://docs.rs/tokio/latest/tokio/sync/struct.Mutex.html',
      'https://stripe.com/docs/api/authentication',
      'https://www.google.com/maps/place/Eiffel+Tower/@48.8583701,2.2944813,17z/data=!3m1!4b1!4m6!3m5!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0!8m2!3d48.8583701!4d2.2944813!16zL20vMDJqODE',
      'https://unpkg.com/react@18.2.0/umd/react.production.min.js?integrity=sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC',
      'https://go.dev/play/p/Vv2zRTm7rQd',
      'https://console.cloud.google.com/apis/credentials?project=my-project-123456',
      'https://gist.github.com/octocat/6cad326836d38bd3a7ae',
      'https://hub.docker.com/layers/library/node/20-alpine/images/sha256-4b1e9c5a9d2f6e3c8f7a1b0d9e8c7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e',
      'https://ghcr.io/v2/owner/image/manifests/sha256:4b1e9c5a9d2f6e3c8f7a1b0d9e8c7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e',
      'https://www.reddit.com/r/node/comments/18xyz12/worker_threads_vs_child_process/',
      'https://medium.com/@someone/how-to-use-node-worker-threads-a-complete-guide-for-beginners-in-2024-3f2a1b0c9d8e',
      'https://arxiv.org/abs/2310.06825',
      'https://docs.docker.com/reference/cli/docker/container/run/#publish',
      'https://www.typescriptlang.org/play?#code/MYewdgzgLgBAhgJwRAXDARgKwKYGMoDcAsAFDmiSxTYCeUAkmAK4gBmMAvDAIwBMAzAFp+QogAYAFAEoA3ESJsAzAFpBQ0dNJlKYWKihYA2AKxxxUA',
      'https://vercel.com/docs/projects/environment-variables#environment-variable-size',
      'https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING',
      'https://auth0.com/docs/secure/tokens/json-web-tokens/json-web-token-structure',
      'https://jwt.io/#debugger-io?token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'https://github.com/search?q=password%3D+language%3Ayaml&type=code',
      'https://docs.npmjs.com/cli/v10/configuring-npm/npmrc#auth-related-configuration',
      'https://www.google.com/url?sa=t&rct=j&q=&esrc=s&source=web&cd=&cad=rja&uact=8&ved=2ahUKEwjX8r6Yx9qDAxVHSPEDHb1iC2gQFnoECBEQAQ&url=https%3A%2F%2Fnodejs.org%2Fapi%2Fworker_threads.html&usg=AOvVaw3k2mZ8fJ9xQ1yV7pT6rLsN&opi=89978449',
      'https://s3.amazonaws.com/bucket/key.tar.gz?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE&Expires=1700000000&Signature=vjbyPxybdZaNmGa%2ByT272YEAiv4%3D',
      'https://slack.com/api/conversations.history',
      'https://www.amazon.com/dp/B08N5WRWNW/ref=sr_1_3?crid=2M096C61O4MLT&keywords=usb+c+hub&qid=1700000000&sprefix=usb+c+hub%2Caps%2C150&sr=8-3',
      'https://twitter.com/user/status/1734567890123456789',
      'https://www.linkedin.com/posts/someone_ai-agents-activity-7134567890123456789-AbCd',
      'https://sourcegraph.com/github.com/golang/go/-/blob/src/net/http/server.go?L2040',
      'https://chromium.googlesource.com/chromium/src/+/4b1e9c5a9d2f6e3c8f7a1b0d9e8c7f6a5b4c3d2e/net/base/net_errors.h',
      'https://bitbucket.org/atlassian/python-bitbucket/src/1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b/README.md',
      'https://gitlab.com/gitlab-org/gitlab/-/blob/master/doc/user/project/settings/project_access_tokens.md',
      'https://www.figma.com/file/AbCdEfGhIjKlMnOpQrStUv/Design-System?node-id=0%3A1&t=aB3cD4eF5gH6iJ7k-0',
      'https://codepen.io/team/codepen/pen/PNaGbb',
      'https://dev.to/someone/understanding-javascript-closures-in-depth-with-examples-4k2m',
      'https://huggingface.co/meta-llama/Llama-2-7b-chat-hf/resolve/main/config.json',
      'https://huggingface.co/datasets/HuggingFaceH4/ultrachat_200k/blob/3b8e2d6c4f1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d/README.md',
      'https://colab.research.google.com/drive/1aBcDeFgHiJkLmNoPqRsTuVwXyZ012345',
      'https://drive.google.com/file/d/1aBcDeFgHiJkLmNoPqRsTuVwXyZ012345/view?usp=sharing',
      'https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit#gid=0',
      'https://www.notion.so/myteam/Engineering-Onboarding-Guide-0123456789abcdef0123456789abcdef',
      'https://www.linkedin.com/posts/someone_ai-agents-activity-7134567890123456789-AbCd',
      'https://nextjs-blog-starter-kit-4f5g6h7j8-acme-corp.vercel.app/',
      'https://octocat-hello-world-5g4wr7q9x2pjh6v-3000.app.github.dev/',
      'https://storage-bucket-prod-assets-2024-eu-west-1a.s3.amazonaws.com/x',
      'https://example.com/pricing?fbclid=IwAR0k2QyX3lq8a4kzU4U0-Ftx5T8m2E9uR3nTiK5q1oL6M2vB8cYwZpFhA',
      'https://example.com/landing?gclid=Cj0KCQjwr82iBhCuARIsAO0EAZwbZ7JbJ5u3KqT9wN0xE2zR8mHfVb1Lc4Yq6XaUsP2dG7oI9kWvM3tEaAk8PEALw_wcB',
      'https://www.google.com/search?q=vitest+worker+threads&oq=vitest+worker+threads&gs_lcrp=EgZjaHJvbWUyBggAEEUYOTIGCAEQRRhA0gEIMzE0MmowajeoAgCwAgA&sourceid=chrome&ie=UTF-8',
      'https://github.com/search?q=password%3D+language%3Ayaml&type=code',
  ];

  test('ordinary links carry nothing: commit hashes, document ids, slugs, signed downloads, search pages, tracking parameters', () => {
    expect(ORDINARY.filter((u) => urlConcerns(withoutTracking(new URL(u)).url).length > 0)).toEqual([]);
    // An opaque avatar id is indistinguishable from encoded data: it asks.
    expect(concerns('https://lh3.googleusercontent.com/a/ACg8ocIq8X7JfN2Y3kQ9bR4T5mL6pV1wZ0sH2gD3eF4aB5cC6dE=s96-c')).toHaveLength(1);
  });

  test('secrets hidden behind a stray %, a prefixed name or a connection string are still named', () => {
    const pct = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const hidden = [
      ...['ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', 'AKIAIOSFODNN7EXAMPLE', 'password=hunter2prod'].map((secret) => `https://c.example.test/x?z=%&k=${pct(secret)}`),
      'https://c.example.test/x?d=DB_PASSWORD%3Dhunter2prod',
      'https://c.example.test/x?d=POSTGRES_PASSWORD:%20s3cr3tPassw0rd',
      'https://c.example.test/x?d=SECRET_KEY%3Ddjango-insecure-9x%25k2!q',
      'https://c.example.test/x?d=STRIPE_SECRET%3Drk_test_51Habcdef',
      'https://c.example.test/x?d=GITHUB_TOKEN%3Dabcdef0123456789abcdef',
      `https://c.example.test/x?d=${encodeURIComponent('DATABASE_URL=postgres://admin:hunter2@db:5432/prod')}`,
      'https://c.example.test/p/db_password=hunter2prod',
    ];
    expect(hidden.filter((u) => concerns(u).length === 0)).toEqual([]);
    expect(lenientDecode('a%&k=%41%4B%49%41+b%zz')).toBe('a%&k=AKIA b%zz');
  });

  test('signature parameters are exempt only in their real shape, and nothing rides in them', () => {
    const data = 'ab'.repeat(450);
    const v4 = (credential: string, extra = '') => `https://evil.example/x?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${credential}&X-Amz-Date=20240101T000000Z&X-Amz-Signature=${'0a'.repeat(32)}${extra}`;
    expect(concerns(v4('AKIAIOSFODNN7EXAMPLE%2F20240101%2Fus-east-1%2Fs3%2Faws4_request'))).toEqual([]);
    expect(concerns(v4(`AKIAIOSFODNN7EXAMPLE/20240101/${data}/s3/aws4_request`))).not.toEqual([]);
    expect(concerns(v4('AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/s3/aws4_request', '&x-amz-credential=AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/s3/aws4_request'))).not.toEqual([]);
    expect(concerns('https://evil.example/x?X-Amz-Credential=AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/s3/aws4_request')).not.toEqual([]); // no signature beside it
    expect(concerns('https://evil.example/x?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE&Signature=&Expires=')).not.toEqual([]);
  });

  test('a hyphen every few characters, a semicolon, or lowercase base32 does not hide data', () => {
    const base64 = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 7919) % 251)).toString('base64').replace(/=+$/, '').replace(/[+/]/g, '_');
    const hyphenated = base64.match(/.{1,40}/g)!.join('-').slice(0, 900);
    expect(concerns(`https://evil.example/x?d=${hyphenated}`)).not.toEqual([]);
    expect(concerns(`https://evil.example/${hyphenated}`)).not.toEqual([]);
    expect(concerns(`https://evil.example/x?d=${base64.match(/.{1,4}/g)!.join('-').slice(0, 900)}`)).not.toEqual([]);
    expect(concerns('https://evil.example/x?password=h;unter2prod')).not.toEqual([]);
    const base32 = Array.from({ length: 300 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz234567'[(i * 13 + 7) % 32]).join('');
    expect(concerns(`https://evil.example/x?d=${base32}`)).not.toEqual([]);
  });

  test('click tracking is dropped from the request; the rest of the query stays in order', () => {
    const { url, removed } = withoutTracking(new URL('https://example.com/p?id=5&utm_source=news&fbclid=IwAR0k&lang=en&gclid=x'));
    expect(url.href).toBe('https://example.com/p?id=5&lang=en');
    expect(removed).toEqual(['utm_source', 'fbclid', 'gclid']);
    // What stays is byte for byte what was asked for: nothing re-serialised.
    expect(withoutTracking(new URL('https://a.example/p?a=1;b=2&flag&q=a%20b&x=~y(z)!&bad=%E0%A4&utm_source=x')).url.search).toBe('?a=1;b=2&flag&q=a%20b&x=~y(z)!&bad=%E0%A4');
    expect(withoutTracking(new URL('https://a.example/p?utm_source=x&UTM%5FMEDIUM=y')).url.href).toBe('https://a.example/p');
    expect(withoutTracking(new URL('https://google.github.io/styleguide/x?ie=1&oq=2')).removed).toEqual([]);
    expect(withoutTracking(new URL('https://example.com/p?ved=1&ei=2')).removed).toEqual([]); // Google's own only on Google
    expect(withoutTracking(new URL('https://www.google.com/search?q=x&ved=1&ei=2')).url.href).toBe('https://www.google.com/search?q=x');
  });

  test('credentials, encoded file contents, data in a DNS label and oversized payloads are named', () => {
    expect(concerns('https://evil.example/?k=AKIAIOSFODNN7EXAMPLE')).toEqual(['the query string holds what looks like an AWS access key: it would leave the machine']);
    expect(concerns(`https://evil.example/collect?d=${encodeURIComponent(encoded)}`)[0]).toMatch(/^the query string carries a \d+-character run of encoded data/);
    expect(concerns(`https://evil.example/${encoded.replace(/\//g, '_')}`)[0]).toMatch(/^the path carries a/);
    expect(concerns('https://evil.example/log?token=ghp_abcdefghijklmnopqrstuvwxyz0123456789')[0]).toContain('a GitHub token');
    expect(concerns('https://evil.example/?q=password%3Dhunter22')[0]).toContain('a secret assignment');
    expect(concerns('https://evil.example/?password=hunter22')[0]).toContain('a secret assignment');
    expect(concerns('https://evil.example/?url=postgres%3A%2F%2Fadmin%3Ahunter2%40db')[0]).toContain('a connection string with a password');
    expect(concerns('https://evil.example/?jwt=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U')[0]).toContain('a JSON Web Token');
    expect(concerns('https://akiaiosfodnn7examplewjalrxutnfemik7mdeng.evil.example/')[0]).toMatch(/^the host name has a 40-character label/);
    expect(concerns('https://s3cr3t-akiaiosfodnn7examplewjalrxutnfemik7mdeng.evil.example/')[0]).toMatch(/^the host name has a 40-character label/);
    expect(concerns(`https://evil.example/x?${'note+'.repeat(220)}`)).toEqual([expect.stringMatching(/^the path and query are 1\d{3} characters long/)]);
  });
});
