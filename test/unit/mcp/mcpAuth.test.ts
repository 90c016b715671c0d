// Peon's side of MCP authorization (DESIGN.md §4 "MCP tools") against a real
// OAuth-protected MCP server on loopback (oauthPeer.ts: the SDK's authorization server and
// bearer middleware): the person is sent to the browser only when a server asks, once
// for requests refused together, never more than MAX_AUTHORIZATIONS times for one
// operation; what is kept survives the session, under the server's key, without a
// verifier or a configured secret. The conformance suite (conformance.test.ts) covers
// discovery, scopes and client authentication through the CLI.
import http from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_AUTHORIZATIONS, mcpAuthorizer, secretKey } from '../../../src/core/mcp/mcpAuth';
import { connectMcp, McpError, type McpAuthorizer, type McpConnection } from '../../../src/core/mcp/mcpClient';
import type { McpSecretStore } from '../../../src/core/mcp/secretStore';
import { deferred } from '../../../src/core/deferred';
import { memorySecrets } from './mcpTestKit';
import { follow, oauthPeer, type OAuthPeer, type OAuthPeerOptions } from './oauthPeer';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function peer(options?: OAuthPeerOptions): Promise<OAuthPeer> {
  const p = await oauthPeer(options);
  cleanups.push(() => p.close());
  return p;
}

const never = new AbortController().signal;

interface Session {
  readonly authorizer: McpAuthorizer;
  readonly opened: string[];
  connect(signal?: AbortSignal): Promise<McpConnection>;
  whoami(): Promise<string>;
  /** Ends the session: its connection, and with it the authorizer. */
  close(): Promise<void>;
}

/** A Peon connection to `server` (connectMcp, as McpServers makes one) whose browser follows every authorization page it is sent to, unless `browser` says otherwise. */
async function session(server: OAuthPeer, store: McpSecretStore, extra: { clientId?: string; clientSecret?: string; browser?: (url: string) => void } = {}): Promise<Session> {
  const opened: string[] = [];
  const authorizer = await mcpAuthorizer({
    serverUrl: server.url,
    store,
    clientId: extra.clientId,
    clientSecret: extra.clientSecret,
    openUrl: (url) => {
      opened.push(url);
      if (extra.browser) extra.browser(url);
      else void follow(url);
    },
  });
  let connection: McpConnection | undefined;
  cleanups.push(async () => {
    await connection?.close();
    authorizer.close();
  });
  return {
    authorizer,
    opened,
    async connect(signal = never) {
      connection = await connectMcp({ server: 'peer', transport: { kind: 'http', url: server.url, headers: {}, sse: false }, cwd: process.cwd(), hostEnv: {}, initTimeoutMs: 10_000, maxMessageBytes: 1 << 20, signal, roots: [], version: '0', authorizer: async () => authorizer });
      return connection;
    },
    async whoami() {
      const result = await connection!.callTool('whoami', {}, 10_000, never);
      return (result.content as { text: string }[])[0]!.text;
    },
    close: async () => connection?.close(),
  };
}

describe('a server that wants authorization', () => {
  test('the person authorizes once; the next session uses what was kept, on the same redirect URI', async () => {
    const server = await peer();
    const store = memorySecrets();
    const first = await session(server, store);
    await first.connect();
    const clientId = await first.whoami();
    expect(first.opened).toHaveLength(1);
    expect(server.authorizations()).toBe(1);

    const kept = store.data.get(secretKey({ serverUrl: server.url }))!;
    const record = JSON.parse(kept) as { client: { client_id: string }; tokens: { access_token: string; refresh_token: string }; redirectUrl: string };
    expect(record.client.client_id).toBe(clientId);
    expect(record.tokens.access_token).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.redirectUrl).toBe(first.authorizer.provider.redirectUrl);
    // What lives for one authorization only is never kept.
    expect(kept).not.toMatch(/verifier|state/i);
    expect([...store.data.keys()]).toEqual([`oauth:${server.url}`]);
    await first.close();

    const second = await session(server, store);
    // The registered redirect URI again: an authorization server that checks it accepts the next authorization.
    expect(second.authorizer.provider.redirectUrl).toBe(record.redirectUrl);
    await second.connect();
    expect(await second.whoami()).toBe(clientId);
    expect(second.opened).toEqual([]);
    expect(server.authorizations()).toBe(1);
  });

  test('two requests refused at once send the person to the browser once, and both run', async () => {
    // Initialize needs no token here: the refusals come to requests of a connected client.
    const server = await peer({ open: ['initialize', 'notifications/initialized'] });
    const s = await session(server, memorySecrets());
    const connection = await s.connect();
    expect(s.opened).toEqual([]);
    const [tools, who] = await Promise.all([connection.listTools(10_000, never), s.whoami()]);
    expect(tools.map((t) => t.name)).toEqual(['whoami']);
    expect(who).not.toBe('nobody');
    expect(s.opened).toHaveLength(1);
    expect(server.authorizations()).toBe(1);
    // Each was refused once: the second waited for the first's tokens, it did not ask again.
    expect(server.refusals()).toBe(2);
  });

  test('an expired access token is refreshed without the browser, and the new one kept', async () => {
    const server = await peer();
    const store = memorySecrets();
    const s = await session(server, store);
    await s.connect();
    const before = store.data.get(secretKey({ serverUrl: server.url }))!;
    server.provider.expireAccessTokens();
    await s.whoami();
    expect(server.provider.refreshes).toBe(1);
    expect(s.opened).toHaveLength(1);
    const after = JSON.parse(store.data.get(secretKey({ serverUrl: server.url }))!) as { tokens: { access_token: string } };
    expect(after.tokens.access_token).not.toBe((JSON.parse(before) as { tokens: { access_token: string } }).tokens.access_token);
  });

  test(`a server that refuses every token gets ${MAX_AUTHORIZATIONS} visits to the browser, then the refusal is the answer`, async () => {
    const server = await peer({ refuseAll: true, noRefreshTokens: true });
    const s = await session(server, memorySecrets());
    await expect(s.connect()).rejects.toBeInstanceOf(McpError);
    expect(server.authorizations()).toBe(MAX_AUTHORIZATIONS);
    expect(s.opened).toHaveLength(MAX_AUTHORIZATIONS);
  });

  test('stopping while the person is in the browser ends the wait at once; nobody takes the late redirect', async () => {
    const server = await peer();
    const page = deferred<string>();
    const s = await session(server, memorySecrets(), { browser: (url) => page.resolve(url) });
    const stop = new AbortController();
    const connecting = s.connect(stop.signal);
    const url = await page.promise;
    stop.abort(new Error('Stopped by the person'));
    await expect(connecting).rejects.toThrow('Stopped by the person');
    // The connection gave up, so its receiver is closed.
    await expect(follow(url)).rejects.toThrow();
  });

  test('a pre-registered client: its ID is used, its secret never written down', async () => {
    const server = await peer();
    const store = memorySecrets();
    const s = await session(server, store, { clientId: 'peon-configured', clientSecret: 's3cret-value' });
    server.provider.preRegister({ client_id: 'peon-configured', client_secret: 's3cret-value', redirect_uris: [s.authorizer.provider.redirectUrl as string], token_endpoint_auth_method: 'client_secret_post' });
    await s.connect();
    expect(await s.whoami()).toBe('peon-configured');
    const key = secretKey({ serverUrl: server.url, clientId: 'peon-configured' });
    expect([...store.data.keys()]).toEqual([key]);
    expect(store.data.get(key)).not.toContain('s3cret-value');
    expect(JSON.parse(store.data.get(key)!)).not.toHaveProperty('client');
  });

  test('the registered redirect port taken by another program: another port, and a registration that names it', async () => {
    const server = await peer();
    const store = memorySecrets();
    const first = await session(server, store);
    await first.connect();
    const firstId = await first.whoami();
    const port = Number(new URL(first.authorizer.provider.redirectUrl as string).port);
    await first.close();
    // Somebody else's server on that port now.
    const squatter = http.createServer((_req, res) => res.end());
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));
    server.provider.expireAccessTokens();

    const second = await session(server, store, {});
    expect(Number(new URL(second.authorizer.provider.redirectUrl as string).port)).not.toBe(port);
    await second.connect();
    expect(await second.whoami()).not.toBe(firstId);
    expect(second.opened).toHaveLength(1);
  });
});
