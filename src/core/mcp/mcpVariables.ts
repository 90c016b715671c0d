// A server's configuration with its variables filled in, for one start. VS Code's
// (`.vscode/mcp.json`, `peon.mcp.servers`): `${workspaceFolder}`,
// `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`, `${env:NAME}` and
// `${input:id}` (asked once; the answer kept in SecretStorage by the face). Claude Code's
// (`.mcp.json`): `${NAME}` and `${NAME:-default}` from the environment. A variable that
// is not known, or an environment variable that is not set and has no default, is an
// error naming it — never an empty string sent silently as a key.
import path from 'node:path';
import type { McpServerConfig, McpTransport } from './mcpConfig';

export interface VariableContext {
  readonly workspaceFolder?: string;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The answer to an `${input:id}` prompt, when there is one yet. */
  readonly input: (id: string) => string | undefined;
}

export type Expanded = { readonly ok: true; readonly transport: McpTransport } | { readonly ok: false; readonly missingInputs: readonly string[]; readonly problems: readonly string[] };

export function expandServer(server: McpServerConfig, ctx: VariableContext): Expanded {
  const missingInputs = new Set<string>();
  const problems = new Set<string>();
  const vscode = (name: string): string => {
    if (name === 'workspaceFolder' || name === 'workspaceFolderBasename') {
      if (ctx.workspaceFolder === undefined) return (problems.add(`\${${name}} needs an open folder`), '');
      return name === 'workspaceFolder' ? ctx.workspaceFolder : path.basename(ctx.workspaceFolder);
    }
    if (name === 'userHome') return ctx.home;
    if (name === 'pathSeparator' || name === '/') return path.sep;
    if (name.startsWith('env:')) return ctx.env[name.slice(4)] ?? '';
    if (name.startsWith('input:')) {
      const value = ctx.input(name.slice(6));
      if (value === undefined) missingInputs.add(name.slice(6));
      return value ?? '';
    }
    problems.add(`\${${name}} is not a variable Peon knows`);
    return '';
  };
  const claude = (name: string): string => {
    const [, key, fallback] = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(name) ?? [];
    if (!key) return (problems.add(`\${${name}} is not an environment variable`), '');
    const value = ctx.env[key];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    problems.add(`the environment variable ${key} is not set (and \${${key}} has no default)`);
    return '';
  };
  const fill = (text: string): string => text.replace(/\$\{([^}]*)\}/g, (_, name: string) => (server.variables === 'claude' ? claude(name) : vscode(name)));
  const map = (record: Readonly<Record<string, string>>): Record<string, string> => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fill(v)]));
  const t = server.transport;
  const transport: McpTransport =
    t.kind === 'stdio'
      ? { kind: t.kind, command: fill(t.command), args: t.args.map(fill), env: map(t.env), ...(t.envFile !== undefined ? { envFile: fill(t.envFile) } : {}), ...(t.cwd !== undefined ? { cwd: fill(t.cwd) } : {}) }
      : { kind: t.kind, url: fill(t.url), headers: map(t.headers), sse: t.sse, ...(t.oauth ? { oauth: map(t.oauth as Readonly<Record<string, string>>) } : {}) };
  if (missingInputs.size > 0 || problems.size > 0) return { ok: false, missingInputs: [...missingInputs], problems: [...problems] };
  return { ok: true, transport };
}
