// The CLI's two pieces of MCP authorization: where it keeps credentials (a 0600 file in a
// 0700 folder under the state folder, written atomically) and how it shows the person the
// authorization page ($BROWSER URL, else the URL on stderr).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { fileSecretStore } from '../../../src/cli/mcpSecrets';
import { cliOpenUrl } from '../../../src/cli/openUrl';
import { deferred } from '../../../src/core/deferred';
import { tempDir } from '../tools/toolTestContext';

const mode = (p: string): number => fs.statSync(p).mode & 0o777;

test('credentials: a 0600 file in a 0700 folder, whole after every write, shared with the next process', async () => {
  const file = path.join(tempDir('peon-state-'), 'mcp', 'secrets.json');
  const store = fileSecretStore(file);
  expect(await store.get('a')).toBeUndefined();
  // Two writes at once: both land.
  await Promise.all([store.set('a', 'one'), store.set('b', 'two')]);
  expect(mode(file)).toBe(0o600);
  expect(mode(path.dirname(file))).toBe(0o700);
  expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ a: 'one', b: 'two' });
  // Another process's store reads what this one wrote, and keeps it when it writes its own.
  const other = fileSecretStore(file);
  expect(await other.get('b')).toBe('two');
  await other.set('c', 'three');
  await store.delete('a');
  expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ b: 'two', c: 'three' });
  // No temp file left beside it.
  expect(fs.readdirSync(path.dirname(file))).toEqual(['secrets.json']);
});

test('credentials: a folder made looser is made 0700 again; a file that does not parse counts as empty', async () => {
  const dir = path.join(tempDir('peon-state-'), 'mcp');
  fs.mkdirSync(dir, { mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, 'secrets.json'), '{"a": "one"', { mode: 0o644 });
  const store = fileSecretStore(path.join(dir, 'secrets.json'));
  expect(await store.get('a')).toBeUndefined();
  await store.set('b', 'two');
  expect(mode(dir)).toBe(0o700);
  expect(mode(path.join(dir, 'secrets.json'))).toBe(0o600);
  expect(JSON.parse(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8'))).toEqual({ b: 'two' });
});

let server: http.Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

test('BROWSER set: it is run with the URL as its last argument, its own words before it', async () => {
  const visited = deferred<string>();
  server = http.createServer((req, res) => {
    visited.resolve(req.url ?? '');
    res.end('ok');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/authorize?client_id=peon&state=s`;
  const browser = path.resolve(__dirname, 'followBrowser.mjs');
  cliOpenUrl('remote', { BROWSER: `${process.execPath} ${browser}` })(url);
  expect(await visited.promise).toBe('/authorize?client_id=peon&state=s');
});

test('no BROWSER, or one that cannot start: the URL on stderr, saying which server it authorizes', async () => {
  const lines: string[] = [];
  const written = deferred<void>();
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    if (lines.length === 2) written.resolve();
    return true;
  });
  cliOpenUrl('remote', {})('https://auth.example.org/authorize?x=1');
  cliOpenUrl('other', { BROWSER: '/nonexistent/browser --new-window' })('https://auth.example.org/authorize?x=2');
  await written.promise;
  expect(lines).toEqual(['peon: open this URL to authorize remote: https://auth.example.org/authorize?x=1\n', 'peon: open this URL to authorize other: https://auth.example.org/authorize?x=2\n']);
});
