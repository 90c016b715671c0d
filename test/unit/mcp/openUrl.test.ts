// How the CLI shows the person an MCP server's authorization page: $BROWSER URL, else
// the URL on stderr.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { cliOpenUrl } from '../../../src/cli/openUrl';
import { deferred } from '../../../src/core/deferred';

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
