// Runs inside a fresh network namespace that has only loopback (see agentRoundTrip.test.ts),
// so whatever the real Claude Code CLI tries, nothing can leave this machine: starts the
// Anthropic server, runs `peon tool agent_claude` with claude first on PATH and the base
// URL pointed at the server, and prints {"tool": <peon's JSON>, "requests": [...]}.
import { spawn } from 'node:child_process';
import { startAnthropicServer } from './anthropicServer.mjs';

const [cli, workspace, claudeBin, home, prompt, reply] = process.argv.slice(2);
const server = await startAnthropicServer(reply);
const env = {
  PATH: `${claudeBin}:/usr/bin:/bin`,
  HOME: home,
  ANTHROPIC_BASE_URL: server.url,
  ANTHROPIC_API_KEY: 'sk-peon-test',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_AUTOUPDATER: '1',
  PEON_STATE_DIR: home,
};
const child = spawn(process.execPath, [cli, 'tool', 'agent_claude', '--workspace', workspace, '--approve', 'all', '--input', JSON.stringify({ prompt, timeout_seconds: 120 })], { env, stdio: ['ignore', 'pipe', 'inherit'] });
let stdout = '';
child.stdout.on('data', (chunk) => (stdout += chunk));
child.on('exit', async () => {
  await server.close();
  process.stdout.write(JSON.stringify({ tool: JSON.parse(stdout), requests: server.requests }));
});
