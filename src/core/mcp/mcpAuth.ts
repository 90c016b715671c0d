// OAuth for remote MCP servers (DESIGN.md §4 "MCP tools"), as the MCP authorization spec
// has it and the SDK's client implements it (protected-resource and authorization-server
// discovery, dynamic registration or a client ID metadata document, PKCE, scope selection
// and step-up, refresh): Peon supplies only what the SDK leaves to the application —
// where credentials live (a face's secret store, one record per server), the browser (the
// face's openUrl) and the loopback redirect that brings the code back (oauthRedirect.ts).
// The SDK only prepares an authorization when a server refuses (401, or 403
// insufficient_scope); waitForCode opens its page, so the browser opens for an
// authorization someone waits for. requestWithAuth runs a request again once the person
// has authorized, at most MAX_AUTHORIZATIONS times, and sends requests refused together
// to the browser once.
import { createHash, randomBytes } from 'node:crypto';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { deadline, untilAborted } from '../deadline';
import { deferred, type Deferred } from '../deferred';
import type { McpAuthorizer } from './mcpClient';
import { redirectReceiver, type RedirectReceiver } from './oauthRedirect';
import type { McpSecretStore } from './secretStore';

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
  return `oauth:${server}${options.clientId === undefined ? '' : `#client=${options.clientId}`}`;
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

/** One authorization the SDK prepared: its page, the verifier and client it was made with, its code. */
interface Authorization {
  readonly url: string;
  readonly verifier: string;
  /** The client the page was made for: two requests refused at once may each have registered one. */
  readonly clientId: string | undefined;
  readonly code: Promise<string>;
  /** The code came back: what is left is exchanging it. */
  arrived: boolean;
  /** Settles once the code is exchanged for tokens (or the authorization fails), for the requests waiting on it. */
  readonly done: Deferred<void>;
}

export class PeonOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  /** The PKCE verifiers the SDK made, by their challenge: each authorization gets its own, whatever ran in between. */
  private readonly verifiers = new Map<string, string>();
  private writes: Promise<void> = Promise.resolve();
  /** Clients this process registered, by ID: a code is exchanged by the client its authorization was made for. */
  private readonly registered = new Map<string, OAuthClientInformationMixed>();
  /** Prepared after a refusal and not opened yet: a newer one replaces it (it may ask for more scope). */
  prepared: Authorization | undefined;
  /** Opened in the browser, its code awaited or being exchanged: one at a time. */
  open: Authorization | undefined;

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
    return this.openedFor() ?? this.record.client;
  }

  /** The client of the authorization in the browser. */
  private openedFor(): OAuthClientInformationMixed | undefined {
    return this.open?.clientId !== undefined ? this.registered.get(this.open.clientId) : undefined;
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
    const exchanged = this.open?.arrived ? this.open : undefined;
    // Kept with the client they were issued to, which refreshes them.
    const client = exchanged ? this.openedFor() : undefined;
    await this.save({ ...this.record, tokens, ...(client ? { client } : {}) });
    if (exchanged) {
      if (this.open === exchanged) this.open = undefined;
      exchanged.done.resolve();
    }
  }

  saveCodeVerifier(codeVerifier: string): void {
    // A handful at most: each is taken by the page made right after it.
    if (this.verifiers.size >= 8) this.verifiers.clear();
    this.verifiers.set(createHash('sha256').update(codeVerifier).digest('base64url'), codeVerifier);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    // The person is in the browser already: that authorization's tokens will serve this request too.
    if (this.open && !this.open.arrived) return;
    const state = authorizationUrl.searchParams.get('state');
    const challenge = authorizationUrl.searchParams.get('code_challenge') ?? '';
    const verifier = this.verifiers.get(challenge);
    if (!state || verifier === undefined) throw new Error('The authorization URL carries no state, or no code challenge of a verifier made for it.');
    this.verifiers.delete(challenge);
    const done = deferred<void>();
    done.promise.catch(() => undefined);
    this.prepared = { url: authorizationUrl.href, verifier, clientId: authorizationUrl.searchParams.get('client_id') ?? undefined, code: this.receiver.expect(state), arrived: false, done };
  }

  codeVerifier(): string {
    if (!this.open) throw new Error('No authorization was opened, so there is no code verifier.');
    return this.open.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    // A verifier lives with its authorization; discovery is never kept.
    if (scope === 'verifier' || scope === 'discovery') return;
    const { client, tokens, ...rest } = this.record;
    await this.save(scope === 'all' ? rest : scope === 'client' ? { ...rest, tokens } : { ...rest, client });
  }

  /** Opens the prepared authorization's page; its code, for the one request that exchanges it. */
  async openPrepared(server: string, signal: AbortSignal): Promise<string> {
    const authorization = this.prepared;
    if (!authorization) throw new Error('No authorization is in progress.');
    this.prepared = undefined;
    this.open = authorization;
    const limit = deadline(signal, AUTHORIZATION_TIMEOUT_MS);
    try {
      await this.options.openUrl(authorization.url);
      const code = await untilAborted(authorization.code, limit.signal);
      authorization.arrived = true;
      return code;
    } catch (error) {
      const timedOut = limit.signal.aborted && !signal.aborted;
      const why = timedOut ? new Error(`Authorizing ${server} was not finished in the browser within ${AUTHORIZATION_TIMEOUT_MS / 60_000} minutes.`) : error;
      this.receiver.cancel(why);
      this.failed(authorization, why);
      throw why;
    } finally {
      limit.clear();
    }
  }

  failed(authorization: Authorization, why: unknown): void {
    if (this.open === authorization) this.open = undefined;
    authorization.done.reject(why);
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

/** The provider of each authorizer, for requestWithAuth. */
const providers = new WeakMap<McpAuthorizer, PeonOAuthProvider>();

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
    waitForCode: (signal) => provider.openPrepared(server, signal),
    close: () => receiver.close(),
  };
  providers.set(authorizer, provider);
  return authorizer;
}

/** What finishes an authorization: the transport the server refused (it knows the resource metadata URL and the scope asked for). */
export interface Finisher {
  finishAuth(code: string): Promise<void>;
}

/**
 * After an UnauthorizedError: the authorization the SDK prepared is opened and its code
 * exchanged on `transport`; when another request's authorization is already out, this
 * one waits for its tokens instead of sending the person to the browser again.
 */
async function authorize(transport: Finisher, authorizer: McpAuthorizer, signal: AbortSignal): Promise<void> {
  const provider = providers.get(authorizer);
  const open = provider?.open;
  if (open) {
    // Someone else's authorization failing is theirs to report: this request tries again.
    await untilAborted(open.done.promise, signal).catch((error: unknown) => {
      if (signal.aborted) throw error;
    });
    return;
  }
  // Authorized meanwhile (another request's tokens are in place): just run again.
  if (provider && !provider.prepared) return;
  const code = await authorizer.waitForCode(signal);
  const opened = provider?.open;
  try {
    await untilAborted(transport.finishAuth(code), signal);
  } catch (error) {
    if (opened) provider?.failed(opened, error);
    throw error;
  }
}

/**
 * Runs one request of a connected client (`tools/list`, `tools/call`): a server may want
 * authorization only for some requests, or more scope for some (step-up: 403
 * insufficient_scope), so any request may send the person to authorize, and it then
 * runs again on the same connection. The time in the browser is not the request's: it
 * failed at once, and the retry gets its own timeout.
 */
export async function requestWithAuth<T>(transport: Finisher, authorizer: McpAuthorizer, signal: AbortSignal, request: () => Promise<T>): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || round >= MAX_AUTHORIZATIONS) throw error;
      await authorize(transport, authorizer, signal);
    }
  }
}
