// What the person reads before a project's MCP server first runs (SECURITY.md: Cursor's
// "MCPoison" swapped the command under an approval given by name): the exact command
// line or URL after its variables are filled in, its folder, its environment and headers
// with the values of secret-looking keys masked, its envFile; and the envFile's values
// as KEY=value lines (dotenv syntax, as VS Code reads it).
import type { ApprovalSummary } from '../tools/contract';
import type { McpServerConfig, McpTransport } from './mcpConfig';

const SECRET_KEY = /key|token|secret|passw|pwd|auth|credential|cookie|session|private|signature/i;

/** `KEY=value`, the value masked when the key looks like it holds a secret. */
export const maskedPair = (key: string, value: string): string => `${key}=${SECRET_KEY.test(key) && value !== '' ? '•'.repeat(8) : value}`;

/** A shell-like rendering of argv: each word quoted when it has to be. */
export function commandLine(command: string, args: readonly string[]): string {
  const quote = (word: string): string => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  return [command, ...args].map(quote).join(' ');
}

export function serverCard(server: McpServerConfig, expanded: McpTransport, changed: boolean, cwd: string): Extract<ApprovalSummary, { kind: 'mcp-server' }> {
  const base = { kind: 'mcp-server' as const, server: server.name, source: server.source, changed };
  if (expanded.kind === 'stdio') {
    return {
      ...base,
      launch: commandLine(expanded.command, expanded.args),
      cwd: expanded.cwd ?? cwd,
      env: Object.entries(expanded.env).map(([k, v]) => maskedPair(k, v)),
      headers: [],
      ...(expanded.envFile !== undefined ? { envFile: expanded.envFile } : {}),
    };
  }
  return { ...base, launch: `${expanded.sse ? 'SSE' : 'HTTP'} ${expanded.url}`, env: [], headers: Object.entries(expanded.headers).map(([k, v]) => maskedPair(k, v)) };
}

/** The variables of a .env file: `KEY=value`, `export KEY=value`, quoted values, `#` comments. */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(raw);
    if (!match) continue;
    let value = match[2]!.trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.lastIndexOf(quote) > 0) {
      value = value.slice(1, value.lastIndexOf(quote));
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else value = value.replace(/\s+#.*$/, '');
    values[match[1]!] = value;
  }
  return values;
}
