// The loopback end of an MCP server's OAuth authorization (RFC 8252 §7.3): an HTTP server
// on 127.0.0.1 that the person's browser is sent back to with `?code=…&state=…` once they
// have authorized Peon. It answers only the authorization it was told to expect (its
// `state`), once; every other request gets an error page and changes nothing, so another
// local process cannot plant a code. It stays bound for the authorizer's life, because a
// step-up later in the session must come back to the same redirect URI the client
// registered with.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deferred, type Deferred } from '../deferred';

export const REDIRECT_PATH = '/callback';

export interface RedirectReceiver {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly url: string;
  /** Arms the receiver for the authorization whose `state` is given; the code its redirect brings. */
  expect(state: string): Promise<string>;
  /** Stops waiting for the armed authorization (its promise rejects with `reason`). */
  cancel(reason: unknown): void;
  close(): void;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res: http.ServerResponse, status: number, title: string, text: string): void {
  const body = `<!doctype html><meta charset="utf-8"><title>Peon</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`;
  // No keep-alive: a browser holding the socket open must not keep close() waiting.
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close', 'Content-Security-Policy': "default-src 'none'" });
  res.end(body);
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * A receiver on `port` (0: any free one). A port that is taken rejects with EADDRINUSE,
 * so a caller that prefers a port can fall back to 0.
 */
export async function redirectReceiver(port = 0): Promise<RedirectReceiver> {
  let pending: { state: string; code: Deferred<string> } | undefined;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== REDIRECT_PATH) return page(res, 404, 'Not found', 'This address only receives an authorization for Peon.');
    const waiting = pending;
    if (!waiting || url.searchParams.get('state') !== waiting.state) {
      return page(res, 400, 'Not expected', 'Peon is not waiting for this authorization. Start it again from Peon.');
    }
    pending = undefined;
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || !code) {
      const why = error === null ? 'the redirect brought no code' : `${error}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`;
      waiting.code.reject(new Error(`The authorization server refused: ${why}`));
      return page(res, 400, 'Authorization failed', `The authorization server answered: ${why}.`);
    }
    waiting.code.resolve(code);
    page(res, 200, 'Peon is authorized', 'You can close this tab and go back to Peon.');
  });
  const bound = await listen(server, port);
  // A receiver nobody closes must not keep the process alive.
  server.unref();
  return {
    url: `http://127.0.0.1:${bound}${REDIRECT_PATH}`,
    expect(state) {
      pending?.code.reject(new Error('A newer authorization replaced this one.'));
      const code = deferred<string>();
      // Rejected with nobody waiting (closed before anyone asked for the code): not an unhandled rejection.
      code.promise.catch(() => undefined);
      pending = { state, code };
      return code.promise;
    },
    cancel(reason) {
      pending?.code.reject(reason);
      pending = undefined;
    },
    close() {
      pending?.code.reject(new Error('The authorization was closed.'));
      pending = undefined;
      server.closeAllConnections();
      server.close();
    },
  };
}
