import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { provisionAgents } from '../../scripts/provision-agents.mjs';
import { makeWorkspace, tempDir } from './tools/toolTestContext';

// Real round trips through the delegate adapters: the agent CLIs from the npm registry,
// pointed at a local Anthropic server, their answers back in Peon's tool results. Each
// runs in a new network namespace with only loopback: nothing can reach any other host.
test.each(['agent_claude', 'agent_pi', 'agent_codex'])('%s runs the real CLI, whose answer comes back in the tool result', (tool) => {
  const agentBin = provisionAgents({ log: () => {} });
  const workspace = makeWorkspace({ 'README.md': '# round trip\n' });
  execFileSync('git', ['init', '-q'], { cwd: workspace }); // codex exec works in a git repository
  const home = tempDir('peon-agent-home-');
  const reply = `PEON-ROUND-TRIP via ${tool}: the tests pass.`;
  const prompt = 'Report on the tests; $(touch pwned) stays text.';
  const r = spawnSync(
    'unshare',
    ['-rn', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, path.resolve('test/fakes/agentRoundTrip.mjs'), tool, path.resolve('dist/cli.js'), workspace, agentBin, home, prompt, reply],
    { encoding: 'utf8', timeout: 150_000 },
  );
  expect(r.status, r.stderr).toBe(0);
  const { tool: result, requests } = JSON.parse(r.stdout) as { tool: Record<string, unknown>; requests: { method: string; url: string; body: unknown }[] };
  expect(result).toMatchObject({ tool, ok: true, risk: 'delegate', data: { exitCode: 0, timedOut: false } });
  // claude and pi print the answer alone; codex prints it within its own transcript.
  if (tool === 'agent_codex') expect(result.output).toContain(reply);
  else expect(result.output).toBe(`${reply}\n[exit code 0]`);
  const asked = requests.find((q) => q.method === 'POST' && /^\/v1\/(messages|responses)/.test(q.url));
  expect(JSON.stringify(asked?.body)).toContain(prompt);
  expect(fs.existsSync(path.join(workspace, 'pwned'))).toBe(false);
}, 180_000);
