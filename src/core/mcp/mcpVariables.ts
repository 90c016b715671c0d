// A server's configuration with its variables filled in, for one start. VS Code's
// (`.vscode/mcp.json`, `peon.mcp.servers`): `${workspaceFolder}`,
// `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`, `${env:NAME}` and
// `${input:id}` (asked once; the answer kept in SecretStorage by the face). Claude Code's
// (`.mcp.json`): `${NAME}` and `${NAME:-default}` from the environment. A variable that
// is not known, or an environment variable that is not set (`${env:NAME}`; `${NAME}`
// without a default), is an error naming it — never an empty string sent silently as a
// key. expandForDisplay fills in the same for a card or a status line, without secrets:
// a password input's answer is `••••••••`, and what has no value yet stays as written.
import path from 'node:path';
import type { McpInput, McpServerConfig, McpTransport } from './mcpConfig';

export interface VariableContext {
  readonly workspaceFolder?: string;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The answer to an `${input:id}` prompt, when there is one yet. */
  readonly input: (id: string) => string | undefined;
}

export type Expanded = { readonly ok: true; readonly transport: McpTransport } | { readonly ok: false; readonly missingInputs: readonly string[]; readonly problems: readonly string[] };

/** What a password input's answer is shown as. */
export const MASKED = '•'.repeat(8);

interface Expansion {
  readonly transport: McpTransport;
  readonly missingInputs: ReadonlySet<string>;
  readonly problems: ReadonlySet<string>;
}

/**
 * The transport with its variables filled in. `display`: for showing — a password
 * input's answer masked, and every variable without a value (an input not answered, an
 * environment variable not set, one Peon does not know) left as written.
 */
function expand(server: McpServerConfig, ctx: VariableContext, display?: { readonly passwords: ReadonlySet<string> }): Expansion {
  const missingInputs = new Set<string>();
  const problems = new Set<string>();
  // Without a value: a problem (or a missing input) to start, the variable as written to show.
  const none = (name: string, problem?: string): string => {
    if (display) return `\${${name}}`;
    if (problem !== undefined) problems.add(problem);
    return '';
  };
  const vscode = (name: string): string => {
    if (name === 'workspaceFolder' || name === 'workspaceFolderBasename') {
      if (ctx.workspaceFolder === undefined) return none(name, `\${${name}} needs an open folder`);
      return name === 'workspaceFolder' ? ctx.workspaceFolder : path.basename(ctx.workspaceFolder);
    }
    if (name === 'userHome') return ctx.home;
    if (name === 'pathSeparator' || name === '/') return path.sep;
    if (name.startsWith('env:')) {
      const key = name.slice(4);
      if (key === '') return none(name, `\${${name}} names no environment variable`);
      return ctx.env[key] ?? none(name, `the environment variable ${key} is not set`);
    }
    if (name.startsWith('input:')) {
      const id = name.slice(6);
      const value = ctx.input(id);
      if (value === undefined) {
        if (!display) missingInputs.add(id);
        return none(name);
      }
      return display?.passwords.has(id) ? MASKED : value;
    }
    return none(name, `\${${name}} is not a variable Peon knows`);
  };
  const claude = (name: string): string => {
    const [, key, fallback] = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(name) ?? [];
    if (!key) return none(name, `\${${name}} is not an environment variable`);
    const value = ctx.env[key];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    return none(name, `the environment variable ${key} is not set (and \${${key}} has no default)`);
  };
  const fill = (text: string): string => text.replace(/\$\{([^}]*)\}/g, (_, name: string) => (server.variables === 'claude' ? claude(name) : vscode(name)));
  const map = (record: Readonly<Record<string, string>>): Record<string, string> => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fill(v)]));
  const t = server.transport;
  const transport: McpTransport =
    t.kind === 'stdio'
      ? { kind: t.kind, command: fill(t.command), args: t.args.map(fill), env: map(t.env), ...(t.envFile !== undefined ? { envFile: fill(t.envFile) } : {}), ...(t.cwd !== undefined ? { cwd: fill(t.cwd) } : {}) }
      : { kind: t.kind, url: fill(t.url), headers: map(t.headers), sse: t.sse, ...(t.oauth ? { oauth: map(t.oauth as Readonly<Record<string, string>>) } : {}) };
  return { transport, missingInputs, problems };
}

export function expandServer(server: McpServerConfig, ctx: VariableContext): Expanded {
  const { transport, missingInputs, problems } = expand(server, ctx);
  if (missingInputs.size > 0 || problems.size > 0) return { ok: false, missingInputs: [...missingInputs], problems: [...problems] };
  return { ok: true, transport };
}

/**
 * The transport as a card or a status line shows it: expanded as for a start, but the
 * answer to a password input (`passwordInputs`, by id or as declared; the server's own
 * declared `password: true` inputs count too) is `••••••••`, an input without an
 * answer stays `${input:id}` (nothing is asked), and a variable without a value
 * (unknown, an environment variable not set, `${workspaceFolder}` with no folder)
 * stays as written. Problems are not reported: expandServer says them.
 */
export function expandForDisplay(server: McpServerConfig, ctx: VariableContext, passwordInputs: Iterable<string | McpInput> = []): McpTransport {
  const passwords = new Set(server.inputs.filter((i) => i.password).map((i) => i.id));
  for (const input of passwordInputs) {
    if (typeof input === 'string') passwords.add(input);
    else if (input.password) passwords.add(input.id);
  }
  return expand(server, ctx, { passwords }).transport;
}
