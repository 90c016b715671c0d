// Where MCP servers are configured (DESIGN.md §4 "MCP tools"), read into one shape:
// `peon.mcp.servers` (user settings, the shape of VS Code's mcp.json `servers`), and for
// the workspace `.vscode/mcp.json` (`servers`, `inputs`; JSONC: comments and trailing
// commas as real files have them) and `.mcp.json` (`mcpServers`, Claude Code's). The
// person's servers come first: a project server of the same name is skipped, with why.
// Values keep their variables (`${input:id}`, `${workspaceFolder}`, `${env:NAME}`, and
// `.mcp.json`'s `${NAME}` / `${NAME:-default}`) until mcpVariables.ts expands them for a
// start; an approval is bound to the configuration as written (serverApproval.ts).
import path from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { readBounded } from '../workspace/safeRead';

const MAX_CONFIG_BYTES = 1024 * 1024;

export type McpSource = 'user' | '.vscode/mcp.json' | '.mcp.json';

/** Which variable syntax a server's values use: VS Code's (`${env:NAME}`) or Claude Code's (`${NAME:-default}`). */
export type VariableStyle = 'vscode' | 'claude';

export type McpTransport =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>>; readonly envFile?: string; readonly cwd?: string }
  /** Streamable HTTP; `sse`: the config asked for the older SSE transport (tried after streamable HTTP fails). */
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly sse: boolean; readonly oauth?: McpOAuth };

/**
 * How Peon presents itself to the server's authorization server (mcp.json `oauth`): a
 * client registered there beforehand, or the URL of a client ID metadata document; absent,
 * Peon registers itself dynamically. `scope`: asked for when the server names none.
 */
export interface McpOAuth {
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly clientMetadataUrl?: string;
  readonly scope?: string;
}

export interface McpInput {
  readonly id: string;
  readonly description?: string;
  /** Typed as a password: never shown back. */
  readonly password: boolean;
}

export interface McpServerConfig {
  /** The config key: the `<server>` of its tools' names. */
  readonly name: string;
  readonly source: McpSource;
  /** From the workspace (runs only once the person approves it, and never in a restricted workspace). */
  readonly project: boolean;
  readonly transport: McpTransport;
  readonly variables: VariableStyle;
  /** The `${input:id}` prompts its values use, as its file declares them. */
  readonly inputs: readonly McpInput[];
}

export interface McpConfigProblem {
  readonly source: McpSource;
  readonly server?: string;
  readonly reason: string;
}

export interface McpConfig {
  readonly servers: readonly McpServerConfig[];
  readonly problems: readonly McpConfigProblem[];
}

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

function stringMap(value: unknown, what: string): Record<string, string> | string {
  if (value === undefined) return {};
  if (!isObject(value)) return `${what} must be an object of strings`;
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
    else if (typeof v === 'string') out[key] = v;
    else if (v !== null) return `${what}.${key} must be a string`;
  }
  return out;
}

function oauthOf(value: unknown): McpOAuth | undefined | string {
  if (value === undefined) return undefined;
  if (!isObject(value)) return '`oauth` must be an object';
  const out: Record<string, string> = {};
  for (const key of ['clientId', 'clientSecret', 'clientMetadataUrl', 'scope'] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.trim() === '') return `\`oauth.${key}\` must be a non-empty string`;
    out[key] = v;
  }
  if (out.clientSecret !== undefined && out.clientId === undefined) return '`oauth.clientSecret` needs the `oauth.clientId` it belongs to';
  // A client ID is a URL (https, with a path) the authorization server fetches the document from.
  if (out.clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./.test(out.clientMetadataUrl)) return '`oauth.clientMetadataUrl` must be an https URL with a path';
  return out;
}

/** One server entry as configured, or why it cannot be used. */
function serverOf(name: string, raw: unknown, source: McpSource, variables: VariableStyle, declared: readonly McpInput[]): McpServerConfig | string {
  if (name.trim() === '') return 'a server needs a name';
  if (!isObject(raw)) return 'its entry must be an object';
  const type = raw.type;
  const hasUrl = typeof raw.url === 'string';
  const kind = type === 'http' || type === 'sse' || type === 'streamable-http' || (type === undefined && hasUrl) ? 'http' : type === 'stdio' || (type === undefined && typeof raw.command === 'string') ? 'stdio' : undefined;
  if (!kind) return `type ${JSON.stringify(type)} is not stdio, http or sse`;
  let transport: McpTransport;
  if (kind === 'stdio') {
    if (typeof raw.command !== 'string' || raw.command.trim() === '') return 'a stdio server needs a `command`';
    if (raw.args !== undefined && (!Array.isArray(raw.args) || !raw.args.every((a) => typeof a === 'string' || typeof a === 'number'))) return '`args` must be a list of strings';
    const env = stringMap(raw.env, 'env');
    if (typeof env === 'string') return env;
    if (raw.envFile !== undefined && typeof raw.envFile !== 'string') return '`envFile` must be a path';
    if (raw.cwd !== undefined && typeof raw.cwd !== 'string') return '`cwd` must be a path';
    transport = { kind, command: raw.command, args: ((raw.args as unknown[] | undefined) ?? []).map(String), env, ...(typeof raw.envFile === 'string' ? { envFile: raw.envFile } : {}), ...(typeof raw.cwd === 'string' ? { cwd: raw.cwd } : {}) };
  } else {
    if (!hasUrl || (raw.url as string).trim() === '') return 'an http server needs a `url`';
    const headers = stringMap(raw.headers, 'headers');
    if (typeof headers === 'string') return headers;
    const oauth = oauthOf(raw.oauth);
    if (typeof oauth === 'string') return oauth;
    transport = { kind, url: raw.url as string, headers, sse: type === 'sse', ...(oauth ? { oauth } : {}) };
  }
  const text = JSON.stringify(transport);
  const used = [...text.matchAll(/\$\{input:([^}]+)\}/g)].map((m) => m[1]!);
  const inputs = [...new Set(used)].map((id) => declared.find((d) => d.id === id) ?? { id, password: false });
  return { name, source, project: source !== 'user', transport, variables, inputs };
}

function inputsOf(raw: unknown): McpInput[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((i) => (isObject(i) && typeof i.id === 'string' ? [{ id: i.id, ...(typeof i.description === 'string' ? { description: i.description } : {}), password: i.password === true }] : []));
}

/** Servers of one file's text (`key`: `servers` or `mcpServers`). */
function parseFile(text: string, source: McpSource, key: 'servers' | 'mcpServers', variables: VariableStyle): McpConfig {
  const errors: ParseError[] = [];
  const data: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !isObject(data)) {
    const first = errors[0];
    return { servers: [], problems: [{ source, reason: first ? `not valid JSON with comments: ${printParseErrorCode(first.error)} at offset ${first.offset}` : 'not an object' }] };
  }
  return collect(data[key], source, variables, inputsOf(data.inputs));
}

function collect(entries: unknown, source: McpSource, variables: VariableStyle, inputs: readonly McpInput[]): McpConfig {
  if (entries === undefined) return { servers: [], problems: [] };
  if (!isObject(entries)) return { servers: [], problems: [{ source, reason: 'its servers must be an object keyed by server name' }] };
  const servers: McpServerConfig[] = [];
  const problems: McpConfigProblem[] = [];
  for (const [name, raw] of Object.entries(entries)) {
    const server = serverOf(name, raw, source, variables, inputs);
    if (typeof server === 'string') problems.push({ source, server: name, reason: server });
    else servers.push(server);
  }
  return { servers, problems };
}

export const parseVsCodeMcp = (text: string): McpConfig => parseFile(text, '.vscode/mcp.json', 'servers', 'vscode');
export const parseClaudeMcp = (text: string): McpConfig => parseFile(text, '.mcp.json', 'mcpServers', 'claude');
/** `peon.mcp.servers` from user settings. */
export const parseUserMcp = (value: unknown): McpConfig => collect(value, 'user', 'vscode', []);

/** Every configured server: the person's first, then the workspace's `.vscode/mcp.json` and `.mcp.json`. */
export function mcpConfig(user: unknown, workspaceRoot: string | undefined): McpConfig {
  const parts: McpConfig[] = [parseUserMcp(user)];
  if (workspaceRoot) {
    for (const [file, parse] of [
      [path.join('.vscode', 'mcp.json'), parseVsCodeMcp],
      ['.mcp.json', parseClaudeMcp],
    ] as const) {
      // A regular file, read without blocking and at most 1 MiB (a FIFO there cannot hang the host).
      const text = readBounded(path.join(workspaceRoot, file), MAX_CONFIG_BYTES, { follow: true });
      if (text !== undefined) parts.push(parse(text));
    }
  }
  const servers: McpServerConfig[] = [];
  const problems: McpConfigProblem[] = parts.flatMap((p) => p.problems);
  for (const server of parts.flatMap((p) => p.servers)) {
    const first = servers.find((s) => s.name === server.name);
    if (first) problems.push({ source: server.source, server: server.name, reason: `a server named "${server.name}" is already configured in ${first.source === 'user' ? 'your settings (peon.mcp.servers)' : first.source}` });
    else servers.push(server);
  }
  return { servers, problems };
}
