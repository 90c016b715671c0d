// Runs inside a fresh network namespace that has only loopback (see agentRoundTrip.test.ts),
// so whatever a real agent CLI tries, nothing can leave this machine: starts the Anthropic
// server, points the agent at it (claude: ANTHROPIC_BASE_URL; pi: its models.json; codex:
// its config.toml, with an OpenAI Responses server instead), runs
// `peon tool <tool>` with the agents first on PATH, and prints
// {"tool": <peon's JSON>, "requests": [...]}.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startModelServer } from './modelServer.mjs';
import { startResponsesServer } from './openaiResponsesServer.mjs';

const [tool, cli, workspace, agentBin, home, prompt, reply] = process.argv.slice(2);
// codex speaks the OpenAI Responses API; claude and pi the Anthropic Messages API.
const server = tool === 'agent_codex' ? await startResponsesServer(reply) : await anthropicServer(reply);

async function anthropicServer(text) {
  const model = await startModelServer();
  model.always({ text });
  return { url: model.anthropicUrl, requests: model.requests, close: () => model.close() };
}
const codexHome = path.join(home, '.codex');
fs.mkdirSync(codexHome, { recursive: true });
fs.writeFileSync(
  path.join(codexHome, 'config.toml'),
  `model = "peon-fake"\nmodel_provider = "local"\n\n[model_providers.local]\nname = "local"\nbase_url = "${server.url}/v1"\nwire_api = "responses"\nenv_key = "PEON_FAKE_KEY"\n`,
);
const piConfig = path.join(home, '.pi', 'agent');
fs.mkdirSync(piConfig, { recursive: true });
fs.writeFileSync(path.join(piConfig, 'models.json'), JSON.stringify({ providers: { local: { baseUrl: server.url, api: 'anthropic-messages', apiKey: 'sk-peon-test', models: [{ id: 'peon-fake' }] } } }));
fs.writeFileSync(path.join(piConfig, 'settings.json'), JSON.stringify({ defaultProvider: 'local', defaultModel: 'peon-fake' }));
const env = {
  PATH: `${agentBin}:/usr/bin:/bin`,
  HOME: home,
  ANTHROPIC_BASE_URL: server.url,
  ANTHROPIC_API_KEY: 'sk-peon-test',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_AUTOUPDATER: '1',
  CODEX_HOME: codexHome,
  PEON_FAKE_KEY: 'sk-peon-test',
  PEON_STATE_DIR: home,
};
const child = spawn(process.execPath, [cli, 'tool', tool, '--workspace', workspace, '--approve', 'all', '--input', JSON.stringify({ prompt, timeout_seconds: 120 })], { env, stdio: ['ignore', 'pipe', 'inherit'] });
let stdout = '';
child.stdout.on('data', (chunk) => (stdout += chunk));
child.on('exit', async () => {
  await server.close();
  process.stdout.write(JSON.stringify({ tool: JSON.parse(stdout), requests: server.requests }));
});
