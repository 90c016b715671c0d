import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { provisionAgents } from '../../scripts/provision-agents.mjs';
import { makeWorkspace, tempDir } from './tools/toolTestContext';

// One real round trip through agent_claude: the Claude Code CLI from the npm registry,
// pointed at a local Anthropic server, its answer back in Peon's tool result. It all
// runs in a new network namespace with only loopback: nothing can reach any other host.
test('agent_claude runs the real Claude Code CLI, whose answer comes back in the tool result', () => {
  const claudeBin = provisionAgents({ log: () => {} });
  const workspace = makeWorkspace({ 'README.md': '# round trip\n' });
  const home = tempDir('peon-claude-home-');
  const reply = 'PEON-ROUND-TRIP: the tests pass.';
  const prompt = 'Report on the tests; $(touch pwned) stays text.';
  const r = spawnSync(
    'unshare',
    ['-rn', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, path.resolve('test/fakes/claudeRoundTrip.mjs'), path.resolve('dist/cli.js'), workspace, claudeBin, home, prompt, reply],
    { encoding: 'utf8', timeout: 150_000 },
  );
  expect(r.status, r.stderr).toBe(0);
  const { tool, requests } = JSON.parse(r.stdout) as { tool: Record<string, unknown>; requests: { method: string; url: string; body: string }[] };
  expect(tool).toMatchObject({ tool: 'agent_claude', ok: true, risk: 'delegate', data: { exitCode: 0, timedOut: false } });
  expect(tool.output).toBe(`${reply}\n[exit code 0]`);
  const asked = requests.find((q) => q.method === 'POST' && q.url.startsWith('/v1/messages'));
  expect(asked?.body).toContain(prompt);
  expect(fs.existsSync(path.join(workspace, 'pwned'))).toBe(false);
}, 180_000);
