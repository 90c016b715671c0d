// A real OAuth-protected MCP server on loopback, for the tests of Peon's side of MCP
// authorization: the SDK's own authorization server (mcpAuthRouter: metadata, dynamic
// registration, an authorize endpoint that checks the redirect URI and PKCE, a token
// endpoint that refreshes) over a provider that keeps it all in memory; and a streamable-HTTP
// MCP endpoint behind the SDK's bearer-token middleware with one tool, `whoami`. Its
// authorize endpoint redirects at once, as a person who clicks "Allow" would.
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// express, as the SDK's router needs it (it ships no types: the little used here, typed here).
type Next = (error?: unknown) => void;
type Handler = (req: http.IncomingMessage & { body?: unknown }, res: http.ServerResponse & { status(code: number): { end(): void } }, next: Next) => void;
interface App extends Handler {
  use(path: string | Handler, ...handlers: Handler[]): void;
  post(path: string, ...handlers: Handler[]): void;
  get(path: string, ...handlers: Handler[]): void;
}
const express = createRequire(import.meta.url)('express') as { (): App; json(): Handler };

/** An authorization server's memory: clients, codes, tokens (with refresh tokens), and a switch that expires every access token. */
class MemoryProvider implements OAuthServerProvider {
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  private readonly access = new Map<string, AuthInfo>();
  private readonly refresh = new Map<string, { clientId: string; scopes: string[] }>();
  refreshes = 0;

  constructor(private readonly refreshTokens: boolean) {}

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: async (id) => this.clients.get(id),
    // The SDK's registration handler has given the client its ID already.
    registerClient: async (client) => {
      const full = client as OAuthClientInformationFull;
      this.clients.set(full.client_id, full);
      return full;
    },
  };

  /** A client registered beforehand, as an administrator would (pre-registration). */
  preRegister(client: OAuthClientInformationFull): void {
    this.clients.set(client.client_id, client);
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: { redirect(url: string): void }): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const grant = this.codes.get(code);
    if (!grant) throw new Error('unknown code');
    return grant.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const grant = this.codes.get(code);
    if (!grant || grant.clientId !== client.client_id) throw new Error('the code was not issued to this client');
    this.codes.delete(code);
    return this.issue(client.client_id, grant.params.scopes ?? []);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const grant = this.refresh.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    this.refreshes++;
    return this.issue(client.client_id, grant.scopes, refreshToken);
  }

  private issue(clientId: string, scopes: string[], refreshToken: string = randomUUID()): OAuthTokens {
    const token = randomUUID();
    this.access.set(token, { token, clientId, scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    this.refresh.set(refreshToken, { clientId, scopes });
    return { access_token: token, token_type: 'bearer', expires_in: 3600, ...(this.refreshTokens ? { refresh_token: refreshToken } : {}), ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}) };
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = this.access.get(token);
    if (!info || (info.expiresAt ?? 0) < Date.now() / 1000) throw new InvalidTokenError('unknown or expired token');
    return info;
  }

  expireAccessTokens(): void {
    for (const info of this.access.values()) info.expiresAt = 0;
  }
}

export interface OAuthPeer {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  readonly provider: MemoryProvider;
  /** Visits to the authorize endpoint: how often a person was sent to the browser. */
  authorizations(): number;
  /** MCP requests answered 401. */
  refusals(): number;
  close(): Promise<void>;
}

export interface OAuthPeerOptions {
  /** JSON-RPC methods answered without a token (a server that wants authorization only for some requests). */
  readonly open?: readonly string[];
  /** Refuses every token, as a server that never accepts what its own authorization server issues. */
  readonly refuseAll?: boolean;
  /** Issues access tokens only, as the conformance suite's authorization servers do. */
  readonly noRefreshTokens?: boolean;
}

export async function oauthPeer(options: OAuthPeerOptions = {}): Promise<OAuthPeer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new MemoryProvider(!options.noRefreshTokens);
  let authorizations = 0;
  let refusals = 0;
  const app = express();
  app.use('/authorize', (_req, _res, next) => {
    authorizations++;
    next();
  });
  const off = { rateLimit: false as const };
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: new URL(`${base}/mcp`), authorizationOptions: off, tokenOptions: off, clientRegistrationOptions: off }));
  const bearer = requireBearerAuth({
    verifier: {
      async verifyAccessToken(token: string): Promise<AuthInfo> {
        if (options.refuseAll) throw new InvalidTokenError('this server accepts no token');
        return provider.verifyAccessToken(token);
      },
    },
    resourceMetadataUrl: `${base}/.well-known/oauth-protected-resource/mcp`,
  });
  const open = new Set(options.open ?? []);
  app.post('/mcp', express.json(), (req, res, next) => {
    res.on('finish', () => void (res.statusCode === 401 && refusals++));
    const serve = async (): Promise<void> => {
      const mcp = new McpServer({ name: 'oauth-peer', version: '1.0.0' });
      mcp.registerTool('whoami', { description: 'The client the token was issued to' }, (extra) => ({ content: [{ type: 'text', text: extra.authInfo?.clientId ?? 'nobody' }] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      await mcp.connect(transport);
      await transport.handleRequest(req, res, req.body);
    };
    if (open.has((req.body as { method?: string } | undefined)?.method ?? '')) return void serve().catch(next);
    bearer(req, res, () => void serve().catch(next));
  });
  app.get('/mcp', (_req, res) => res.status(405).end());
  server.on('request', app);
  return {
    url: `${base}/mcp`,
    provider,
    authorizations: () => authorizations,
    refusals: () => refusals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser that follows the authorization page's redirect to the loopback receiver; the receiver's status. */
export async function follow(authorizationUrl: string): Promise<number> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  await page.body?.cancel();
  const location = page.headers.get('location');
  if (!location) throw new Error(`The authorization page answered ${page.status} without a redirect`);
  const back = await fetch(location);
  await back.body?.cancel();
  return back.status;
}
