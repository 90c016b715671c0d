import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startModelServer } from '../fakes/modelServer.mjs';
import { makeWorkspace, tempDir } from './tools/toolTestContext';

// `peon run` as a black box through both protocols, against the scripted model server.
const CLI = path.resolve('dist/cli.js');
let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

function peonRun(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', ...args], { env: { ...process.env, PEON_STATE_DIR: tempDir(), ANTHROPIC_API_KEY: 'sk-test', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const protocols = () =>
  [
    ['anthropic', ['--provider', 'anthropic', '--base-url', server.anthropicUrl]],
    ['openai', ['--provider', 'openai', '--base-url', server.openaiUrl]],
  ] as const;

describe('peon run', () => {
  test.each([0, 1])('--json: one event per line, a read call and its whole result, then the answer (%s)', async (i) => {
    const [, flags] = protocols()[i]!;
    const root = makeWorkspace({ 'notes.txt': `${'n'.repeat(800)}\n` });
    server.script({ toolCalls: [{ id: 'r1', name: 'read', arguments: '{"path":"notes.txt"}' }] }, { text: 'The notes are all n.' });
    const r = await peonRun(['--workspace', root, ...flags, '--model', 'm', '--json', 'What', 'is', 'in', 'notes.txt?']);
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });
    expect(events.map((e) => e.type).filter((t, j, all) => t !== all[j - 1])).toEqual(['prompt', 'usage', 'tool_call', 'tool_result', 'text', 'usage', 'final']);
    const result = events.find((e) => e.type === 'tool_result') as unknown as { outcome: { ok: boolean; output: string } };
    expect(result.outcome.output).toBe(`1\t${'n'.repeat(800)}`); // whole in --json
    expect(events.at(-1)).toMatchObject({ type: 'final', reason: 'end_turn', text: 'The notes are all n.' });
  });

  test('--json: each step\'s changed files are in its tool_result event (a command\'s, found by the checkpoint; a write\'s own)', async () => {
    const [, flags] = protocols()[1]!;
    const root = makeWorkspace({ 'keep.txt': 'keep\n', 'old.txt': 'old\n' });
    server.script(
      { toolCalls: [{ id: 'b1', name: 'bash', arguments: JSON.stringify({ command: 'echo made > made.txt; rm old.txt; echo more >> keep.txt' }) }] },
      { toolCalls: [{ id: 'w1', name: 'write', arguments: JSON.stringify({ path: 'written.txt', content: 'w\n' }) }] },
      { text: 'Done.' },
    );
    const r = await peonRun(['--workspace', root, ...flags, '--model', 'm', '--approve', 'all', '--json', 'Change', 'files']);
    expect(r.code).toBe(0);
    const results = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; outcome?: { tool: string; changes?: { step: string; files: { path: string; kind: string }[] } } }).filter((e) => e.type === 'tool_result');
    expect(results.map((e) => [e.outcome?.tool, e.outcome?.changes?.files.map((f) => `${f.kind} ${f.path}`)])).toEqual([
      ['bash', ['modified keep.txt', 'created made.txt', 'deleted old.txt']],
      ['write', ['created written.txt']],
    ]);
    expect(results[0]!.outcome!.changes!.step).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each([0, 1])('with peon.model.price, usage events carry the cost of the tokens the server reported (%s)', async (i) => {
    const [name, flags] = protocols()[i]!;
    const root = makeWorkspace({ 'a.txt': 'alpha\n' });
    const config = path.join(tempDir(), 'settings.json');
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    fs.writeFileSync(config, JSON.stringify({ 'peon.model.price': price }));
    server.script({ toolCalls: [{ id: 'r1', name: 'read', arguments: '{"path":"a.txt"}' }] }, { text: 'alpha.' });
    const r = await peonRun(['--workspace', root, ...flags, '--model', 'm', '--config', config, '--json', 'read a.txt']);
    expect(r.code).toBe(0);
    const usage = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; total?: Record<string, number>; cost?: { turn: number; total: number } }).filter((e) => e.type === 'usage');
    // What the scripted server reports per request: Anthropic 100 in + 40 cache read + 10
    // cache write, 20 out; OpenAI 100 prompt tokens of which 40 cached, 20 out.
    const perRequest = name === 'anthropic' ? { inputTokens: 100, outputTokens: 20, cacheReadTokens: 40, cacheWriteTokens: 10 } : { inputTokens: 60, outputTokens: 20, cacheReadTokens: 40, cacheWriteTokens: 0 };
    const requestCost = (perRequest.inputTokens * 3 + perRequest.outputTokens * 15 + perRequest.cacheReadTokens * 0.3 + perRequest.cacheWriteTokens * 3.75) / 1e6;
    expect(usage).toHaveLength(2);
    expect(usage[1]!.total).toEqual({ inputTokens: 2 * perRequest.inputTokens, outputTokens: 40, cacheReadTokens: 80, cacheWriteTokens: 2 * perRequest.cacheWriteTokens });
    expect(usage[0]!.cost!.turn).toBeCloseTo(requestCost, 12);
    expect(usage[1]!.cost!.total).toBeCloseTo(2 * requestCost, 12);
  });

  test('human-readable: the turn ends with its tokens and cost on stderr; an unknown price says so', async () => {
    const root = makeWorkspace();
    const config = path.join(tempDir(), 'settings.json');
    fs.writeFileSync(config, JSON.stringify({ 'peon.model.price': { input: 1000, output: 1000 } }));
    server.script({ text: 'Hi.' });
    const priced = await peonRun(['--workspace', root, '--provider', 'openai', '--base-url', server.openaiUrl, '--model', 'm', '--config', config, 'hi']);
    expect(priced.stderr).toContain('peon: 60 in, 20 out, 40 cache read, 0 cache write · $0.1200\n');
    server.script({ text: 'Hi.' });
    const unpriced = await peonRun(['--workspace', root, '--provider', 'openai', '--base-url', server.openaiUrl, '--model', 'm', 'hi']);
    expect(unpriced.stderr).toContain('peon: 60 in, 20 out, 40 cache read, 0 cache write · cost unknown\n');
    expect(unpriced.stdout.trim()).toBe('Hi.');
  });

  test('human-readable: streamed text, tool results cut to 500 characters', async () => {
    const root = makeWorkspace({ 'notes.txt': `${'n'.repeat(800)}\n` });
    server.script({ text: 'Let me look.', toolCalls: [{ id: 'r1', name: 'read', arguments: '{"path":"notes.txt"}' }] }, { text: 'Done.' });
    const r = await peonRun(['--workspace', root, '--provider', 'openai', '--base-url', server.openaiUrl, '--model', 'm', 'look']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Let me look.\n→ read {"path":"notes.txt"}\n');
    expect(r.stdout).toContain(`1\t${'n'.repeat(498)}… [302 more characters]`);
    expect(r.stdout.trimEnd().endsWith('Done.')).toBe(true);
  });

  test('usage errors exit 2: no prompt, no model, no key, an unknown provider', async () => {
    const root = makeWorkspace();
    expect(await peonRun(['--workspace', root, '--model', 'm'])).toMatchObject({ code: 2, stderr: expect.stringContaining('needs a prompt') });
    expect(await peonRun(['--workspace', root, 'hi'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--model') });
    expect(await peonRun(['--workspace', root, '--model', 'm', 'hi'], { ANTHROPIC_API_KEY: '' })).toMatchObject({ code: 2, stderr: expect.stringContaining('ANTHROPIC_API_KEY') });
    expect(await peonRun(['--workspace', root, '--model', 'm', '--provider', 'gemini', 'hi'])).toMatchObject({ code: 2 });
  });

  test('a base URL from the workspace settings is ignored: the key never goes there', async () => {
    const root = makeWorkspace({ '.vscode/settings.json': JSON.stringify({ 'peon.model.baseUrl': 'http://127.0.0.1:9/', 'peon.model.provider': 'openai' }) });
    server.script({ text: 'from the real endpoint' });
    const config = path.join(tempDir(), 'user.json');
    fs.writeFileSync(config, JSON.stringify({ 'peon.model.provider': 'anthropic', 'peon.model.baseUrl': server.anthropicUrl, 'peon.model.id': 'm' }));
    const r = await peonRun(['--workspace', root, '--config', config, '--json', 'hi']);
    expect(r.stderr).toContain('peon.model.baseUrl is ignored in workspace settings');
    expect(r.stdout).toContain('from the real endpoint');
  });
  test('human-readable: a fetched page cannot write escape sequences to the terminal; the tool leads with its sentence', async () => {
    const page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('before\u001b]52;c;ZXZpbA==\u0007\u001b]0;pwned\u0007\r\u001b[2K\u001b[32m✓ all tests passed\u001b[0m after'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    try {
      const port = (page.address() as AddressInfo).port;
      const root = makeWorkspace({});
      const config = path.join(tempDir(), 'settings.json');
      fs.writeFileSync(config, JSON.stringify({ 'peon.web.allowedHosts': [`127.0.0.1:${port}`] }));
      // The second call's arguments, as the model streamed them, carry escapes of their own.
      server.script({ toolCalls: [{ id: 'w1', name: 'webfetch', arguments: JSON.stringify({ url: `http://127.0.0.1:${port}/notes.txt` }) }, { id: 'w2', name: 'webfetch', arguments: '{"url":"\u001b]52;c;ZXZpbA==\u0007\r\u001b[2K"}' }] }, { text: 'Read it.\u001b]0;title\u0007' });
      const r = await peonRun(['--workspace', root, '--provider', 'openai', '--base-url', server.openaiUrl, '--model', 'm', '--config', config, 'read the notes']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`✓ Fetched 127.0.0.1:${port}/notes.txt · 72 B → text`);
      expect(r.stdout).toContain('before✓ all tests passed after');
      // eslint-disable-next-line no-control-regex -- what must not reach the terminal
      expect(r.stdout).not.toMatch(/[\u001b\u0007\r]/);
    } finally {
      page.close();
    }
  });
});

describe('peon run with subagents (in-process)', () => {
  test.each([0, 1])('--json events carry the agent name; a background task is waited for and its report answered (%s)', async (i) => {
    const [, flags] = protocols()[i]!;
    const root = makeWorkspace({ 'a.txt': 'alpha\n' });
    const state = tempDir();
    server.script(
      { toolCalls: [{ id: 't1', name: 'task', arguments: JSON.stringify({ name: 'scout', subagent_type: 'explorer', prompt: 'What is in a.txt?', background: true }) }] },
      { text: 'Scout is on it.' },
    );
    server.route('scout', { toolCalls: [{ id: 's1', name: 'read', arguments: '{"path":"a.txt"}' }] }, { text: 'a.txt says alpha.' });
    server.script({ text: 'Scout found: alpha.' });
    const r = await peonRun(['--workspace', root, ...flags, '--model', 'm', '--json', 'look'], { PEON_STATE_DIR: state });
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { agent: string; type: string; [k: string]: unknown });
    expect(new Set(events.map((e) => e.agent))).toEqual(new Set(['cli', 'scout']));
    expect(events.filter((e) => e.agent === 'scout').map((e) => e.type)).toContain('tool_call');
    const finals = events.filter((e) => e.type === 'final' && e.agent === 'cli');
    expect(finals.at(-1)).toMatchObject({ text: 'Scout found: alpha.' });
    const last = server.requests.at(-1)!.body as { messages: unknown[] };
    expect(JSON.stringify(last.messages)).toContain('a.txt says alpha.');
    // Its transcript is saved under the state folder, and the report says where.
    const dirs = fs.readdirSync(path.join(state, 'runs'));
    expect(fs.existsSync(path.join(state, 'runs', dirs[0]!, 'agents', 'scout.jsonl'))).toBe(true);
    expect(JSON.stringify(last.messages)).toContain(`Transcript: ${path.join(state, 'runs', dirs[0]!, 'agents', 'scout.jsonl')}`);
    server.reset();
  });

  test('human mode: a subagent\'s calls are marked with its name, and its spend is shown', async () => {
    const root = makeWorkspace({ 'a.txt': 'alpha\n' });
    server.script({ toolCalls: [{ id: 't1', name: 'task', arguments: JSON.stringify({ name: 'scout', subagent_type: 'explorer', prompt: 'Read a.txt.' }) }] }, { text: 'Done.' });
    server.route('scout', { toolCalls: [{ id: 's1', name: 'read', arguments: '{"path":"a.txt"}' }] }, { text: 'alpha.' });
    const r = await peonRun(['--workspace', root, '--provider', 'anthropic', '--base-url', server.anthropicUrl, '--model', 'm', 'look']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  [scout] → read {"path":"a.txt"}');
    expect(r.stdout).toContain('✓ scout (explorer) finished · 2 turns · 340 tokens');
    expect(r.stderr).toContain('peon: subagents 340 tokens (scout completed 340)');
    server.reset();
  });
});
