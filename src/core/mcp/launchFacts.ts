// What a project's MCP server will run, found before it is approved and without asking
// anything (SECURITY.md; the review's reproductions), from its configuration filled in
// for showing (mcpVariables.ts expandForDisplay): its envFile, read bounded, with where it really points (a link to
// ~/.aws/credentials is said) and its values (PATH there would swap the program); the
// executable its command resolves to with that environment; and the workspace files
// its command line names (./srv.sh), whose content the approval is bound to as well.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { findExecutable } from '../process/findExecutable';
import { readBounded } from '../workspace/safeRead';
import type { McpServerConfig, McpTransport } from './mcpConfig';
import { parseEnvFile } from './serverCard';
import { serverEnv } from './stdioTransport';

const MAX_FILE_BYTES = 1024 * 1024;

export interface EnvFileFacts {
  /** As configured, variables filled in. */
  readonly path: string;
  /** Where it really is (links followed), when it exists. */
  readonly real?: string;
  readonly outside: boolean;
  /** Its text (at most 1 MiB of a regular file); undefined: missing, not a regular file, unreadable. */
  readonly text?: string;
  readonly values: Readonly<Record<string, string>>;
}

export interface LaunchFacts {
  /** The transport for showing (never a password). */
  readonly shown: McpTransport;
  readonly envFile?: EnvFileFacts;
  /** The program the command resolves to, with the server's PATH. */
  readonly executable?: string;
  /** Workspace files its command line names, with their SHA-256 (bound by the approval). */
  readonly programs: readonly { readonly path: string; readonly sha256: string }[];
}

const inside = (root: string, file: string): boolean => {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

function realOf(file: string): string | undefined {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return undefined;
  }
}

export function envFileFacts(file: string, root: string): EnvFileFacts {
  const real = realOf(file);
  const realRoot = realOf(root) ?? root;
  const text = readBounded(file, MAX_FILE_BYTES, { follow: true });
  return { path: file, ...(real ? { real } : {}), outside: real !== undefined && !inside(realRoot, real), ...(text !== undefined ? { text } : {}), values: text === undefined ? {} : parseEnvFile(text) };
}

export function launchFacts(config: McpServerConfig, shown: McpTransport, root: string, cwd: string, hostEnv: NodeJS.ProcessEnv): LaunchFacts {
  if (shown.kind !== 'stdio') return { shown, programs: [] };
  const envFile = shown.envFile !== undefined ? envFileFacts(path.resolve(root, shown.envFile), root) : undefined;
  const env = serverEnv({ env: { ...envFile?.values, ...shown.env }, hostEnv });
  const command = shown.command.includes('/') ? path.resolve(cwd, shown.command) : shown.command;
  const executable = findExecutable(command, env, false);
  const realRoot = realOf(root) ?? root;
  const programs: { path: string; sha256: string }[] = [];
  for (const word of [shown.command, ...shown.args]) {
    if (word.startsWith('-') && !word.includes('/')) continue;
    const real = realOf(path.resolve(cwd, word));
    if (!real || !inside(realRoot, real) || programs.some((p) => p.path === real)) continue;
    const text = readBounded(real, MAX_FILE_BYTES, { follow: true });
    if (text !== undefined) programs.push({ path: real, sha256: createHash('sha256').update(text).digest('hex') });
  }
  return { shown, ...(envFile ? { envFile } : {}), ...(executable ? { executable } : {}), programs };
}
