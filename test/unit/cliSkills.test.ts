// The four tools and `/skill-name` through the built `peon` command, as a terminal user runs them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startModelServer } from '../fakes/modelServer.mjs';
import { CLI, peon, peonTool } from './cliHarness';
import { makeWorkspace, tempDir } from './tools/toolTestContext';

let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

const skillMd = (name: string, front = '') => `---\nname: ${name}\ndescription: The ${name} skill.\n${front}---\n# ${name}\n\nCheck release $version.\n`;
const workspace = () =>
  makeWorkspace({
    '.claude/skills/release-checks/SKILL.md': skillMd('release-checks', 'arguments: [version]\n'),
    '.claude/skills/Bad Name/SKILL.md': skillMd('Bad Name'),
    'AGENTS.md': '# Rules\n\nAlways run the release checks before tagging.\n',
  });
const home = () => ({ HOME: tempDir('peon-home-') });

test('peon tools lists read_skill, loadskill, mem-search and mem-read with their schemas', () => {
  const r = peon(['tools', '--json'], { env: home() });
  const tools = JSON.parse(r.stdout) as { name: string; risk: string; inputSchema: { required?: string[] } }[];
  for (const name of ['read_skill', 'loadskill', 'mem-search', 'mem-read']) expect(tools.find((t) => t.name === name)).toMatchObject({ risk: 'read_only' });
  expect(tools.find((t) => t.name === 'mem-search')!.inputSchema.required).toEqual(['query']);
});

test('peon tool runs each of them; a skipped skill is a warning on stderr, with its reason', () => {
  const ws = workspace();
  const read = peon(['tool', 'read_skill', '--workspace', ws, '--input', '{"name":"release-checks"}'], { env: home() });
  expect(JSON.parse(read.stdout)).toMatchObject({ tool: 'read_skill', ok: true, data: { source: '.claude/skills/release-checks/SKILL.md' } });
  expect(read.stderr).toContain('peon: Skill .claude/skills/Bad Name/SKILL.md skipped: name "Bad Name" is not 1–64 lowercase letters');
  expect(peonTool('loadskill', ws, { name: 'release-checks', arguments: { version: '2.0' } }, [], { env: home() })).toMatchObject({ ok: true, output: expect.stringContaining('Check release 2.0.') });
  expect(peonTool('read_skill', ws, { name: '../x' }, [], { env: home() })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(peonTool('mem-search', ws, { query: 'release checks tagging' }, [], { env: home() })).toMatchObject({ ok: true, output: expect.stringContaining('<entry id="cur-agents-md" kind="curated" title="Rules"') });
  expect(peonTool('mem-read', ws, { id: 'cur-agents-md' }, [], { env: home() })).toMatchObject({ ok: true, data: { file: 'AGENTS.md' } });
  expect(peonTool('mem-read', ws, { id: '../x' }, [], { env: home() })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
});

test('/skill-name in a peon run prompt loads the skill: the terminal says so and the model gets the block', async () => {
  const ws = workspace();
  server.script({ text: 'Checked.' });
  const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', '--workspace', ws, '--provider', 'anthropic', '--base-url', server.anthropicUrl, '--model', 'm', '/release-checks 3.1'], {
      env: { ...process.env, PEON_STATE_DIR: tempDir(), ANTHROPIC_API_KEY: 'sk-test', ...home() },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/peon: skill release-checks loaded \(\.claude\/skills\/release-checks\/SKILL\.md, sha256 [0-9a-f]{12}\)/);
  expect(r.stdout).toContain('Checked.');
  const body = JSON.stringify(server.requests.at(-1).body);
  expect(body).toContain('<skill:release-checks source=\\".claude/skills/release-checks/SKILL.md\\"');
  expect(body).toContain('Check release 3.1.');
  // The run ended: what it did is in the workspace's memory, which the next run's mem-search finds.
  const id = /this run's summary is in memory as (sum-[0-9a-f]{6})/.exec(r.stderr)?.[1];
  expect(id).toBeDefined();
  const summary = fs.readFileSync(path.join(ws, '.peon/memory/summaries', `${id}.md`), 'utf8');
  expect(summary).toContain('- /release-checks 3.1\n');
  expect(summary).not.toContain('<skill:');
  expect(peonTool('mem-search', ws, { query: 'release checks' }, [], { env: home() }).output).toContain(`<entry id="${id}" kind="summary"`);
});
