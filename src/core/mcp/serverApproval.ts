// What approving a project's MCP server binds to (DESIGN.md §4, SECURITY.md: Cursor's
// "MCPoison" ran a swapped command under an approval given by name): a hash of the
// configuration as written — command, args, env, envFile path and the file's content,
// cwd, URL, headers and OAuth client — so that any change asks again. Keys are sorted,
// so the order a file lists them in does not matter; values keep their variables (an
// `${input:…}` answer is not part of the configuration).
import { createHash } from 'node:crypto';
import type { McpServerConfig } from './mcpConfig';

const sorted = (record: Readonly<Record<string, string>>): [string, string][] => Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * `envFileContent`: the bytes of its envFile now (undefined: none, or unreadable — which
 * is part of the hash too); `programs`: the workspace files its command line names, with
 * their SHA-256 (a repository that rewrites ./srv.sh after approval is asked again).
 */
export function approvalHash(server: McpServerConfig, envFileContent?: Uint8Array, programs: readonly { readonly path: string; readonly sha256: string }[] = []): string {
  const t = server.transport;
  const bound =
    t.kind === 'stdio'
      ? { kind: t.kind, command: t.command, args: t.args, env: sorted(t.env), envFile: t.envFile ?? null, envFileSha256: envFileContent ? createHash('sha256').update(envFileContent).digest('hex') : null, cwd: t.cwd ?? null }
      : { kind: t.kind, url: t.url, headers: sorted(t.headers), sse: t.sse, ...(t.oauth ? { oauth: sorted(t.oauth as Readonly<Record<string, string>>) } : {}) };
  return createHash('sha256').update(JSON.stringify({ name: server.name, source: server.source, ...bound, ...(programs.length > 0 ? { programs: programs.map((p) => [p.path, p.sha256]) } : {}) })).digest('hex');
}
