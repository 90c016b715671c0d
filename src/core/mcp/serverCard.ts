// What the person reads before a project's MCP server first runs (SECURITY.md: Cursor's
// "MCPoison" swapped the command under an approval given by name): the exact command
// line or URL after its variables are filled in, its folder, its environment and headers
// with the values of secret-looking keys masked, its envFile; and the envFile's values
// as KEY=value lines (dotenv syntax, as VS Code reads it).
import type { ApprovalSummary } from '../tools/contract';
import type { LaunchFacts } from './launchFacts';
import type { McpServerConfig } from './mcpConfig';

const SECRET_KEY = /key|token|secret|passw|pwd|auth|credential|cookie|session|private|signature/i;

/** `KEY=value`, the value masked when the key looks like it holds a secret. */
export const maskedPair = (key: string, value: string): string => `${key}=${SECRET_KEY.test(key) && value !== '' ? '•'.repeat(8) : value}`;

/** A shell-like rendering of argv: each word quoted when it has to be. */
export function commandLine(command: string, args: readonly string[]): string {
  const quote = (word: string): string => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  return [command, ...args].map(quote).join(' ');
}

/** `KEY=value` masked, and where a secret came from when a variable put it there (whose secret goes out). */
function pairs(shown: Readonly<Record<string, string>>, written: Readonly<Record<string, string>>, suffix = ''): string[] {
  return Object.entries(shown).map(([k, v]) => {
    const template = written[k];
    const from = template !== undefined && template.includes('${') && template !== v ? ` (from ${JSON.stringify(template)})` : '';
    return `${maskedPair(k, v)}${from}${suffix}`;
  });
}

export function serverCard(server: McpServerConfig, facts: LaunchFacts, changed: boolean, cwd: string): Extract<ApprovalSummary, { kind: 'mcp-server' }> {
  const base = { kind: 'mcp-server' as const, server: server.name, source: server.source, changed };
  const expanded = facts.shown;
  const written = server.transport;
  if (expanded.kind === 'stdio') {
    const envFile = facts.envFile;
    const where = envFile?.real && envFile.real !== envFile.path ? ` (really ${envFile.real}${envFile.outside ? ', outside the workspace' : ''})` : envFile?.outside ? ' (outside the workspace)' : '';
    return {
      ...base,
      launch: commandLine(expanded.command, expanded.args),
      ...(facts.executable ? { executable: facts.executable } : {}),
      cwd: expanded.cwd ?? cwd,
      env: [...pairs(expanded.env, written.kind === 'stdio' ? written.env : {}), ...pairs(envFile?.values ?? {}, {}, ' (from the envFile)')],
      headers: [],
      ...(envFile ? { envFile: `${envFile.path}${where}${envFile.text === undefined ? ' — cannot be read' : ''}` } : {}),
      ...(facts.programs.length > 0 ? { programs: facts.programs.map((p) => p.path) } : {}),
    };
  }
  return { ...base, launch: `${expanded.sse ? 'SSE' : 'HTTP'} ${expanded.url}`, env: [], headers: pairs(expanded.headers, written.kind === 'http' ? written.headers : {}) };
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
