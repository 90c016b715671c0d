// Real MCP servers for the tests (TESTING.md "Real peers"): server-everything and
// server-filesystem from the npm registry (provisioned, pinned), and the tests' own
// fault server (test/fixtures/mcp/faultServer.mjs). McpServers is built as a face
// builds it, with an in-memory trust store and secret store.
import fs from 'node:fs';
import path from 'node:path';
import { provisionMcpServers } from '../../../scripts/provision-mcp.mjs';
import { McpServers, type McpHooks } from '../../../src/core/mcp/mcpServers';
import { McpTrust, type TrustData } from '../../../src/core/mcp/mcpTrust';
import type { McpSecretStore } from '../../../src/core/mcp/secretStore';
import type { Approver } from '../../../src/core/permissions/approvals';
import { resolveSettings } from '../../../src/core/settings';
import { readProc } from '../../../src/core/process/procfs';
import { tempDir } from '../tools/toolTestContext';

export const FAULT_SERVER = path.resolve('test/fixtures/mcp/faultServer.mjs');
export const fault = (...modes: string[]) => ({ command: process.execPath, args: [FAULT_SERVER, ...modes] });

let peers: ReturnType<typeof provisionMcpServers> | undefined;
export const mcpPeers = () => (peers ??= provisionMcpServers());
export const everything = () => ({ command: process.execPath, args: [mcpPeers().everything, 'stdio'] });

export function memorySecrets(): McpSecretStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: async (k) => data.get(k), set: async (k, v) => void data.set(k, v), delete: async (k) => void data.delete(k) };
}

export interface Kit {
  readonly servers: McpServers;
  readonly trustData: () => TrustData | undefined;
  readonly approvals: string[];
}

export interface KitOptions {
  readonly user?: Record<string, unknown>;
  readonly root?: string;
  readonly approve?: Approver;
  readonly trusted?: boolean;
  readonly saved?: TrustData;
  readonly settings?: Record<string, unknown>;
  readonly hooks?: Partial<McpHooks>;
  readonly env?: NodeJS.ProcessEnv;
}

export function mcpKit(options: KitOptions = {}): Kit {
  let saved: TrustData | undefined = options.saved;
  const approvals: string[] = [];
  const approve: Approver = options.approve ?? (async () => ({ approved: true }));
  const settings = resolveSettings({ user: { 'peon.mcp.servers': options.user ?? {}, ...options.settings }, workspace: {} }).values;
  const root = options.root ?? tempDir('peon-mcp-ws-');
  const servers = new McpServers({
    settings,
    folders: [root],
    trusted: options.trusted ?? true,
    trust: new McpTrust(saved, (data) => (saved = data)),
    hostEnv: options.env ?? process.env,
    home: tempDir('peon-home-'),
    version: '0.0.0-test',
    hooks: {
      agent: 'test',
      approve: async (request, signal) => {
        approvals.push(request.assessment.summary.kind);
        return approve(request, signal);
      },
      secrets: memorySecrets(),
      ...options.hooks,
    },
  });
  return { servers, trustData: () => saved, approvals };
}

/** Whether a process lives (and is not a zombie). Nothing is signalled. */
export const alive = (pid: number): boolean => readProc(pid) !== undefined;

export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}
