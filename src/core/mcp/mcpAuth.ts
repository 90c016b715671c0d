// OAuth for remote MCP servers (DESIGN.md §4 "MCP tools"), as the MCP authorization spec
// has it and the SDK's client implements it (protected-resource and authorization-server
// discovery, dynamic registration or a client ID metadata document, PKCE, scope selection
// and step-up, refresh): Peon supplies only what the SDK leaves to the application —
// where credentials live (a face's secret store, one record per server), the browser (the
// face's openUrl) and the loopback redirect that brings the code back (oauthRedirect.ts).
// connectWithAuth and requestWithAuth run the dance around the SDK: a request the server
// refuses (401, or 403 insufficient_scope) sends the person to authorize, then runs again.
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { deadline, untilAborted } from '../deadline';
import { deferred, type Deferred } from '../deferred';
import { redirectReceiver, type RedirectReceiver } from './oauthRedirect';

/** A face's secret storage: VS Code's SecretStorage, the CLI's 0600 file (src/cli/mcpSecrets.ts). */
export interface McpSecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface McpAuthorizer {
  readonly provider: OAuthClientProvider;
  /**
   * The code the redirect brought back after provider.redirectToAuthorization (which only
   * prepares the page: this opens it, so the browser opens for an authorization someone
   * waits for, at most MAX_AUTHORIZATIONS times per operation); rejects on abort.
   */
  waitForCode(signal: AbortSignal): Promise<string>;
  close(): void;
}

export interface McpAuthorizerOptions {
  readonly serverUrl: string;
  readonly store: McpSecretStore;
  /** Shows the person the authorization page (VS Code: env.openExternal; the CLI: $BROWSER). */
  readonly openUrl: (url: string) => void | Promise<void>;
  /** A client registered with the authorization server beforehand (mcp.json `oauth.clientId`); without it, dynamic registration. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Asked for when neither the server's 401 nor its metadata names a scope. */
  readonly scope?: string;
  /** An https URL serving Peon's client ID metadata document, used as the client ID where the authorization server accepts one. */
  readonly clientMetadataUrl?: string;
}

/** How long the person has to finish authorizing in the browser. */
export const AUTHORIZATION_TIMEOUT_MS = 5 * 60_000;
/**
 * How many times one operation may send the person to authorize before it gives up: a
 * server that keeps asking for a scope it never grants (step-up without end) stops here.
 */
export const MAX_AUTHORIZATIONS = 3;

/** What is kept for one server (and one configured client): never the PKCE verifier, which lives for one authorization. */
interface AuthRecord {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** The redirect URI the stored client registered: the receiver binds its port again. */
  redirectUrl?: string;
}

/** One record per server URL, and per configured client, so a changed client ID never presents another's tokens. */
export function secretKey(options: Pick<McpAuthorizerOptions, 'serverUrl' | 'clientId'>): string {
  const server = new URL(options.serverUrl).href;
  return `peon.mcp.oauth/${server}${options.clientId === undefined ? '' : `#client=${options.clientId}`}`;
}

function parseRecord(text: string | undefined): AuthRecord {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as AuthRecord) : {};
  } catch {
    // A record that does not parse is as good as none: the person authorizes again.
    return {};
  }
}

const portOf = (url: string | undefined): number => {
  if (url === undefined) return 0;
  try {
    return Number(new URL(url).port) || 0;
  } catch {
    return 0;
  }
};

/** One authorization: its page, its code, and whether an operation has opened it (and will exchange the code). */
interface Pending {
  readonly url: string;
  /** The client the page was made for: two requests refused at once may each have registered one. */
  readonly clientId: string | undefined;
  readonly code: Promise<string>;
  claimed: boolean;
  /** Settles once the code is exchanged (or the authorization fails), for the operations that wait on someone else's. */
  readonly done: Deferred<void>;
}

export class PeonOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  private verifier: string | undefined;
  private writes: Promise<void> = Promise.resolve();
  /** Clients this process registered, by ID: a code is exchanged by the client its authorization was started for. */
  private readonly registered = new Map<string, OAuthClientInformationMixed>();
  /** The authorization prepared, or out in the browser: one at a time, whatever asked for it. */
  pending: Pending | undefined;

  constructor(
    private readonly options: McpAuthorizerOptions,
    private readonly receiver: RedirectReceiver,
    private record: AuthRecord,
  ) {
    this.clientMetadataUrl = options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.receiver.url;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Peon',
      redirect_uris: [this.receiver.url],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A native app keeps no secret (RFC 8252 §8.4); an authorization server that insists issues one, and says how to use it.
      token_endpoint_auth_method: 'none',
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }

  state(): string {
    return randomBytes(32).toString('base64url');
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.options.clientId !== undefined) return { client_id: this.options.clientId, ...(this.options.clientSecret !== undefined ? { client_secret: this.options.clientSecret } : {}) };
    return this.startedFor() ?? this.record.client;
  }

  /** The client of the authorization whose code is being exchanged. */
  private startedFor(): OAuthClientInformationMixed | undefined {
    return this.pending?.claimed && this.pending.clientId !== undefined ? this.registered.get(this.pending.clientId) : undefined;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    // A configured client is the configuration's: nothing of it is stored.
    if (this.options.clientId !== undefined) return;
    this.registered.set(client.client_id, client);
    await this.save({ ...this.record, client });
  }

  tokens(): OAuthTokens | undefined {
    return this.record.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    // Kept with the client they were issued to, which refreshes them.
    const client = this.startedFor();
    await this.save({ ...this.record, tokens, ...(client ? { client } : {}) });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    // Another request already sent the person to the browser: its code will serve this one too.
    if (this.pending?.claimed) return;
    // Not opened yet: the newer page replaces it (it may ask for more scope).
    const state = authorizationUrl.searchParams.get('state');
    if (!state) throw new Error('The authorization URL carries no state.');
    this.pending = { url: authorizationUrl.href, clientId: authorizationUrl.searchParams.get('client_id') ?? undefined, code: this.receiver.expect(state), claimed: false, done: deferred<void>() };
    this.pending.done.promise.catch(() => undefined);
  }

  saveCodeVerifier(codeVerifier: string): void {
    // The verifier of the authorization in the browser stays: a second request's must not replace it.
    if (!this.pending?.claimed) this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('No authorization was started, so there is no code verifier.');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope === 'verifier' || scope === 'discovery') return;
    const { client, tokens, ...rest } = this.record;
    await this.save(scope === 'all' ? rest : scope === 'client' ? { ...rest, tokens } : { ...rest, client });
  }

  /** Writes in the order they were made: a slow first write cannot land over a later one. */
  private save(record: AuthRecord): Promise<void> {
    this.record = { ...record, redirectUrl: this.receiver.url };
    const text = JSON.stringify(this.record);
    const key = secretKey(this.options);
    this.writes = this.writes.catch(() => undefined).then(() => this.options.store.set(key, text));
    return this.writes;
  }
}

/** Opens the prepared authorization's page; its code, for the one operation that will exchange it. */
async function claimCode(provider: PeonOAuthProvider, receiver: RedirectReceiver, options: McpAuthorizerOptions, server: string, signal: AbortSignal): Promise<string> {
  const pending = provider.pending;
  if (!pending) throw new Error('No authorization is in progress.');
  pending.claimed = true;
  const limit = deadline(signal, AUTHORIZATION_TIMEOUT_MS);
  try {
    await options.openUrl(pending.url);
    return await untilAborted(pending.code, limit.signal);
  } catch (error) {
    const timedOut = limit.signal.aborted && !signal.aborted;
    const why = timedOut ? new Error(`Authorizing ${server} was not finished in the browser within ${AUTHORIZATION_TIMEOUT_MS / 60_000} minutes.`) : error;
    receiver.cancel(why);
    pending.done.reject(why);
    provider.pending = undefined;
    throw why;
  } finally {
    limit.clear();
  }
}

/** The receiver and the provider of each authorizer, for the dance below. */
const parts = new WeakMap<McpAuthorizer, { provider: PeonOAuthProvider; receiver: RedirectReceiver; server: string }>();

export async function mcpAuthorizer(options: McpAuthorizerOptions): Promise<McpAuthorizer> {
  const record = parseRecord(await options.store.get(secretKey(options)));
  const preferred = portOf(record.redirectUrl);
  let receiver: RedirectReceiver;
  try {
    receiver = await redirectReceiver(preferred);
  } catch (error) {
    if (preferred === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    // The port the client registered is taken: another port, and a registration that names it.
    receiver = await redirectReceiver(0);
    delete record.client;
  }
  const provider = new PeonOAuthProvider(options, receiver, record);
  const server = new URL(options.serverUrl).host;
  const authorizer: McpAuthorizer = {
    provider,
    waitForCode: (signal) => claimCode(provider, receiver, options, server, signal),
    close: () => receiver.close(),
  };
  parts.set(authorizer, { provider, receiver, server });
  return authorizer;
}

/**
 * After an UnauthorizedError: the authorization the browser is out on is finished on
 * `transport` (the one whose 401 or 403 started it: it knows the resource metadata URL and
 * the scope asked for), or, when another operation is already finishing it, awaited.
 */
async function authorize(transport: StreamableHTTPClientTransport, authorizer: McpAuthorizer, signal: AbortSignal): Promise<void> {
  const own = parts.get(authorizer);
  const pending = own?.provider.pending;
  // Finished by another operation meanwhile: its tokens are in place, so just run again.
  if (!own || !pending) return;
  if (pending.claimed) {
    // Someone else's authorization failing is theirs to report: this operation tries again.
    await untilAborted(pending.done.promise, signal).catch((error: unknown) => {
      if (signal.aborted) throw error;
    });
    return;
  }
  const code = await authorizer.waitForCode(signal);
  try {
    await untilAborted(transport.finishAuth(code), signal);
    pending.done.resolve();
  } catch (error) {
    pending.done.reject(error);
    throw error;
  } finally {
    own.provider.pending = undefined;
  }
}

/**
 * Connects `client` over a transport `makeTransport` builds with `authorizer.provider` as
 * its authProvider; when the server wants authorization first, the person gives it in the
 * browser and the client connects again over a new transport (a failed connect closes
 * its transport). Returns the transport connected.
 */
export async function connectWithAuth(makeTransport: () => StreamableHTTPClientTransport, client: Client, authorizer: McpAuthorizer, signal: AbortSignal): Promise<StreamableHTTPClientTransport> {
  for (let round = 0; ; round++) {
    const transport = makeTransport();
    try {
      await client.connect(transport, { signal });
      return transport;
    } catch (error) {
      await client.close();
      if (!(error instanceof UnauthorizedError) || round >= MAX_AUTHORIZATIONS) throw error;
      await authorize(transport, authorizer, signal);
    }
  }
}

/**
 * Runs one request of a connected client (`client.listTools()`, `client.callTool(…)`):
 * a server may want authorization only for some requests, or more scope for some (step-up:
 * 403 insufficient_scope), so any request may send the person to authorize, and then it
 * runs again on the same connection. The time in the browser is not the request's: the
 * request failed at once, and the retry gets a fresh timeout.
 */
export async function requestWithAuth<T>(client: Client, authorizer: McpAuthorizer, signal: AbortSignal, request: () => Promise<T>): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || round >= MAX_AUTHORIZATIONS) throw error;
      await authorize(client.transport as StreamableHTTPClientTransport, authorizer, signal);
    }
  }
}
