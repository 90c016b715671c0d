// The CLI's MCP servers (DESIGN.md §8): the same McpServers as the panel's, with the
// CLI's hooks. Approvals and fingerprints in <state>/mcp-trust.json, secrets in
// <state>/mcp-secrets.json (both 0600). A project server starts only under
// `--approve all` or with an approval already recorded; a changed tool returns only
// under `--approve all`. A server's elicitation takes its schema's defaults under
// `--approve all`, is asked on the terminal otherwise, and is declined without one; an
// OAuth page opens in $BROWSER (openUrl.ts). What waits or failed is said on stderr,
// never a crash.
import os from 'node:os';
import path from 'node:path';
import { askElicitation, elicitationDefaults } from '../core/mcp/elicitation';
import { mcpAuthorizer } from '../core/mcp/mcpAuth';
import { McpServers, type McpHooks } from '../core/mcp/mcpServers';
import { McpTrust } from '../core/mcp/mcpTrust';
import type { McpSecretStore } from '../core/mcp/secretStore';
import type { Approver } from '../core/permissions/approvals';
import type { SettingValues } from '../core/settings';
import type { QuestionAsker } from '../core/tools/contract';
import { version } from '../../package.json';
import { cliOpenUrl } from './openUrl';
import { readPrivateJson, writePrivateJson } from './privateJson';
import { shownOnTerminal } from './terminalQuestions';

/** A JSON object of strings in a private file, as a secret store. */
export function fileSecrets(file: string): McpSecretStore {
  const load = (): Record<string, string> => {
    const data = readPrivateJson(file);
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, string>) : {};
  };
  return {
    get: async (key) => (typeof load()[key] === 'string' ? load()[key] : undefined),
    set: async (key, value) => writePrivateJson(file, { ...load(), [key]: value }),
    delete: async (key) => {
      const { [key]: _gone, ...rest } = load();
      writePrivateJson(file, rest);
    },
  };
}

/** The variable an `${input:id}` answer may come from in the CLI: `PEON_INPUT_<ID>` (letters and digits, the rest as `_`). */
export const inputVariable = (id: string): string => `PEON_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/**
 * An `${input:id}` answer: from PEON_INPUT_<ID>, else typed on the terminal (not a
 * password: it would show as typed), else none — the server then waits, saying which.
 */
function inputAsker(ask: QuestionAsker | undefined): McpHooks['askInput'] {
  return async (server, input, signal) => {
    const given = process.env[inputVariable(input.id)];
    if (given !== undefined) return given;
    if (!ask || input.password) return undefined;
    const reply = await ask({ agent: `MCP server "${server}"`, questions: [{ id: 'value', question: `${input.description ?? `The value of \${input:${input.id}}`} (kept under PEON_STATE_DIR)`, type: 'text', required: true }] }, signal);
    return 'answers' in reply ? reply.answers.value : undefined;
  };
}

export interface CliMcpOptions {
  readonly state: string;
  readonly root: string;
  readonly settings: SettingValues;
  readonly approve: Approver;
  /** `--approve all`: a server's elicitation is accepted with its schema's defaults, never asked. */
  readonly approveAll: boolean;
  /** The terminal, when there is one to ask on. */
  readonly ask?: QuestionAsker;
}

export function cliMcpServers(options: CliMcpOptions): McpServers {
  const trustFile = path.join(options.state, 'mcp-trust.json');
  const secrets = fileSecrets(path.join(options.state, 'mcp-secrets.json'));
  const ask = options.ask;
  return new McpServers({
    settings: options.settings,
    folders: [options.root],
    trusted: true,
    trust: new McpTrust(readPrivateJson(trustFile), (data) => writePrivateJson(trustFile, data)),
    hostEnv: process.env,
    home: os.homedir(),
    version,
    hooks: {
      agent: 'cli',
      approve: options.approve,
      secrets,
      askInput: inputAsker(ask),
      // Nobody to ask (a pipe, no --approve all): declined.
      elicit: async (server, params, signal) => {
        if (options.approveAll) return elicitationDefaults(params);
        if (!ask) return { action: 'decline' };
        const answer = await askElicitation(server, params, ask, signal);
        if (answer.problem) process.stderr.write(`peon: MCP server "${server}" was answered ${answer.result.action}: ${answer.problem}\n`);
        return answer.result;
      },
      authorizer: (server, transport) => mcpAuthorizer({ serverUrl: transport.url, store: secrets, openUrl: cliOpenUrl(server.name), ...transport.oauth }),
    },
  });
}

/** One stderr line for each server that is not ready, or has tools withheld. */
export function mcpWarnings(servers: McpServers): string[] {
  const lines = servers.problems.map((p) => `MCP configuration ${p.source}${p.server ? ` (server "${p.server}")` : ''}: ${p.reason}`);
  for (const s of servers.statuses()) {
    const where = s.source === 'user' ? 'your settings' : s.source;
    if (s.state === 'needs-approval') lines.push(`MCP server "${s.name}" from ${where} waits for approval: ${s.detail ?? ''} Run with --approve all to approve it (${s.launch}).`);
    else if (s.state === 'needs-input') lines.push(`MCP server "${s.name}" from ${where} did not start: ${s.detail ?? ''}. Give it in the environment (${(s.detail ?? '').match(/"[^"]+"/g)?.map((q) => inputVariable(q.slice(1, -1))).join(', ') ?? 'PEON_INPUT_<ID>'}) or type it in a terminal.`);
    else if (s.state === 'failed') lines.push(`MCP server "${s.name}" from ${where} did not start: ${s.detail ?? 'unknown reason'}${s.stderr && !(s.detail ?? '').includes(s.stderr) ? `\n${s.stderr}` : ''}`);
    if (s.withheld.length > 0) lines.push(`MCP server "${s.name}": ${s.withheld.join(', ')} changed since approved and ${s.withheld.length === 1 ? 'is' : 'are'} withheld; run with --approve all to approve the change.`);
  }
  // Names, commands and stderr come from a repository's files and a server's output: no escape sequence reaches the terminal.
  return lines.map(shownOnTerminal);
}
