// One connection to one MCP server, over the official SDK's Client: stdio through
// Peon's own transport (stdioTransport.ts), streamable HTTP with the SSE fallback
// (SDK example streamableHttpWithSseFallbackClient: a 4xx to the first POST means an
// older server). `initialize` has its own deadline; each call has one, cancelled by
// Stop with `notifications/cancelled` (the SDK sends it for an aborted request); a
// closed connection fails every pending call at once, with the server's stderr tail.
// `tools/list` follows its cursor (bounded) and `list_changed` is heard, debounced.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, ElicitRequestSchema, ListRootsRequestSchema, ListToolsResultSchema, ToolListChangedNotificationSchema, type ElicitRequest, type ElicitResult, type Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { requestWithAuth } from './mcpAuth';
import type { McpTransport } from './mcpConfig';
import { cappedFetch } from './cappedFetch';
import { linkRequest } from './requestCancel';
import { StdioTransport, type CloseReason } from './stdioTransport';

export type { ListedTool };

const MAX_PAGES = 50;
const MAX_TOOLS = 1000;
const LIST_CHANGED_DEBOUNCE_MS = 300;
const AUTH_ROUNDS = 3;

/** The OAuth side of an HTTP server (src/core/mcp/mcpAuth.ts): the SDK's provider, and the code the loopback redirect brings. */
export interface McpAuthorizer {
  readonly provider: OAuthClientProvider;
  waitForCode(signal: AbortSignal): Promise<string>;
  close(): void;
}

export interface ConnectOptions {
  /** The configuration key, for messages. */
  readonly server: string;
  /** The configuration with its variables filled in. */
  readonly transport: McpTransport;
  /** The stdio server's folder when its configuration names none (the workspace's root). */
  readonly cwd: string;
  /** envFile's variables, under the configuration's env. */
  readonly envFileValues?: Readonly<Record<string, string>>;
  readonly hostEnv: NodeJS.ProcessEnv;
  readonly initTimeoutMs: number;
  readonly maxMessageBytes: number;
  readonly signal: AbortSignal;
  /** The workspace folders, offered as the client's roots (server-filesystem serves them). */
  readonly roots: readonly string[];
  readonly version: string;
  readonly authorizer?: () => Promise<McpAuthorizer>;
  /** A server's elicitation request, put to the person (or answered by the CLI's defaults). */
  readonly elicit?: (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  readonly onToolsChanged?: () => void;
  /** The connection ended on its own (the server exited, sent too much, the HTTP session ended). */
  readonly onClosed?: (why: string, tooLarge: boolean) => void;
}

export class McpError extends Error {
  constructor(
    readonly code: 'timeout' | 'too_large' | 'unavailable' | 'cancelled',
    message: string,
  ) {
    super(message);
  }
}

export class McpConnection {
  private closing = false;
  private changeTimer: NodeJS.Timeout | undefined;
  /** An HTTP server's OAuth, kept for the connection's life: any request may need authorization (step-up). */
  private authorizer: McpAuthorizer | undefined;

  constructor(
    private readonly client: Client,
    private readonly transport: Transport,
    readonly options: ConnectOptions,
    /** Why the transport closed on its own, when it knows (stdio: the exit; HTTP: a body over the cap). */
    private readonly closeReason: () => CloseReason | undefined,
  ) {
    client.onclose = () => {
      clearTimeout(this.changeTimer);
      const reason = this.closeReason();
      if (!this.closing) options.onClosed?.(reason?.text ?? 'the connection closed', reason?.kind === 'too_large');
    };
    client.onerror = () => undefined; // a bad line or a dropped stream: the close (if any) says why
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      clearTimeout(this.changeTimer);
      this.changeTimer = setTimeout(() => options.onToolsChanged?.(), LIST_CHANGED_DEBOUNCE_MS);
    });
  }

  /** Once connected: the connection's requests may authorize, and its close closes the authorizer. */
  keepAuthorizer(authorizer: McpAuthorizer | undefined): this {
    this.authorizer = authorizer;
    return this;
  }

  get serverInfo(): { name?: string; version?: string } | undefined {
    return this.client.getServerVersion();
  }

  /** The last lines of the server's stderr (stdio servers). */
  stderrTail(): string {
    return this.transport instanceof StdioTransport ? this.transport.stderrTail() : '';
  }

  get pid(): number | undefined {
    return this.transport instanceof StdioTransport ? this.transport.pid : undefined;
  }

  /** Every tool the server lists, page after page (at most 50 pages, 1000 tools), all within `timeoutMs`. */
  async listTools(timeoutMs: number, signal: AbortSignal): Promise<ListedTool[]> {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    const end = performance.now() + timeoutMs;
    for (let page = 0; page < MAX_PAGES && tools.length < MAX_TOOLS; page++) {
      const left = Math.round(end - performance.now());
      if (left <= 0) throw new McpError('timeout', `MCP server "${this.options.server}" did not finish listing its tools within ${Math.round(timeoutMs / 1000)} s (peon.mcp.startTimeoutSeconds).`);
      const result = await this.request((own) => this.client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, ListToolsResultSchema, { signal: own, timeout: left }), 'tools/list', signal);
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools.slice(0, MAX_TOOLS);
  }

  async callTool(name: string, args: Record<string, unknown>, timeoutMs: number, signal: AbortSignal, onProgress?: (text: string) => void): Promise<Record<string, unknown>> {
    return this.request(
      (own) =>
        this.client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, {
          signal: own,
          timeout: timeoutMs,
          ...(onProgress ? { onprogress: (p) => onProgress(`${p.message ?? 'progress'}${p.total ? ` ${p.progress}/${p.total}` : ` ${p.progress}`}`) } : {}),
        }),
      name,
      signal,
    );
  }

  /**
   * A request, its failure said in Peon's words: which server, why, and what it last
   * wrote to stderr. It is cancelled with the caller's signal through a link of its own
   * (requestCancel.ts: the SDK never removes the listener it adds to a request's signal).
   */
  private async request<T>(send: (signal: AbortSignal) => Promise<T>, what: string, signal: AbortSignal): Promise<T> {
    const { cancel, done } = linkRequest(signal);
    try {
      const http = this.transport instanceof StreamableHTTPClientTransport || this.transport instanceof SSEClientTransport ? this.transport : undefined;
      if (this.authorizer && http) return await requestWithAuth(http, this.authorizer, signal, () => send(cancel.signal));
      return await send(cancel.signal);
    } catch (error) {
      throw this.explain(error, what, signal);
    } finally {
      done();
    }
  }

  explain(error: unknown, what: string, signal?: AbortSignal): McpError {
    if (error instanceof McpError) return error;
    const { server } = this.options;
    const tail = this.stderrTail();
    const withTail = (text: string): string => (tail ? `${text}\nLast lines of its stderr:\n${tail}` : text);
    const reason = this.closeReason();
    if (reason?.kind === 'too_large') return new McpError('too_large', withTail(`MCP server "${server}": ${what} failed, ${reason.text}. The server is restarted.`));
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    // Stop (the caller's signal): the SDK sent notifications/cancelled.
    if (signal?.aborted) return new McpError('cancelled', `${what} was cancelled (the server was told).`);
    if (code === -32001) return new McpError('timeout', withTail(`MCP server "${server}" did not answer ${what} in time.`));
    if (code === -32000 || reason) return new McpError('unavailable', withTail(`MCP server "${server}" stopped during ${what}: ${reason?.text ?? 'the connection closed'}.`));
    return new McpError('unavailable', withTail(`MCP server "${server}": ${what} failed: ${message}`));
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.changeTimer);
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
    this.authorizer?.close();
  }
}

function newClient(options: ConnectOptions): Client {
  const client = new Client(
    { name: 'peon', version: options.version },
    { capabilities: { roots: { listChanged: false }, ...(options.elicit ? { elicitation: { form: {} } } : {}) } },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: options.roots.map((root) => ({ uri: pathToFileURL(root).href, name: root.split('/').pop() ?? root })) }));
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicit(request.params, extra.signal));
  }
  return client;
}

/** Connects and initializes within `initTimeoutMs`, or throws McpError with why (and the stderr tail). */
export async function connectMcp(options: ConnectOptions): Promise<McpConnection> {
  const t = options.transport;
  if (t.kind === 'stdio') {
    const transport = new StdioTransport({ command: t.command, args: t.args, cwd: t.cwd ?? options.cwd, env: { ...options.envFileValues, ...t.env }, hostEnv: options.hostEnv, maxMessageBytes: options.maxMessageBytes });
    return initialize(options, transport, () => transport.closeReason);
  }
  const url = new URL(t.url);
  const requestInit = { headers: { ...t.headers } };
  let exceeded: CloseReason | undefined;
  let current: Transport | undefined;
  const fetch = cappedFetch(options.maxMessageBytes, () => {
    exceeded = { kind: 'too_large', text: `the server sent a message over ${Math.round(options.maxMessageBytes / 1048576)} MB (peon.mcp.maxMessageMB)` };
    void current?.close();
  });
  const reason = () => exceeded;
  const authorizer = options.authorizer ? await options.authorizer() : undefined;
  try {
    for (let round = 0; ; round++) {
      const streamable = new StreamableHTTPClientTransport(url, { requestInit, fetch, ...(authorizer ? { authProvider: authorizer.provider } : {}) });
      current = streamable;
      try {
        return (await initialize(options, streamable, reason)).keepAuthorizer(authorizer);
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause ?? error;
        if (cause instanceof UnauthorizedError && authorizer && round < AUTH_ROUNDS) {
          await streamable.finishAuth(await authorizer.waitForCode(options.signal));
          continue;
        }
        const status = cause instanceof StreamableHTTPError ? cause.code : undefined;
        if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403) throw error;
      }
      // An older server: the HTTP+SSE transport of the 2024-11-05 spec.
      current = new SSEClientTransport(url, { requestInit, fetch, ...(authorizer ? { authProvider: authorizer.provider } : {}) });
      return (await initialize(options, current, reason)).keepAuthorizer(authorizer);
    }
  } catch (error) {
    // Connected, the connection closes it; not connected, nothing will ask for a code.
    authorizer?.close();
    throw error;
  }
}

async function initialize(options: ConnectOptions, transport: Transport, closeReason: () => CloseReason | undefined): Promise<McpConnection> {
  const client = newClient(options);
  const connection = new McpConnection(client, transport, options, closeReason);
  try {
    await client.connect(transport, { timeout: options.initTimeoutMs, signal: options.signal });
    return connection;
  } catch (error) {
    const explained = connection.explain(error, 'initialize', options.signal);
    await connection.close();
    const startFailed = error instanceof Error && /was not found/.test(error.message);
    if (startFailed) throw new McpError('unavailable', `MCP server "${options.server}" could not start: ${error.message}`);
    if (explained.code === 'timeout') throw new McpError('timeout', explained.message.replace(/did not answer initialize in time/, `did not answer initialize within ${Math.round(options.initTimeoutMs / 1000)} s (peon.mcp.startTimeoutSeconds)`));
    const err = new McpError(explained.code, explained.message);
    (err as { cause?: unknown }).cause = error;
    throw err;
  }
}
