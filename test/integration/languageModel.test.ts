import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { runAgentTurn, type LoopEvent } from '../../src/core/agent/loop';
import type { HistoryItem } from '../../src/core/model/modelClient';
import { resolveSettings } from '../../src/core/settings';
import { DEFAULT_LIMITS } from '../../src/core/tools/contract';
import { builtinRegistry } from '../../src/core/tools/builtins';
import { CallPipeline } from '../../src/core/conversation/pipeline';
import { FileSnapshots } from '../../src/core/workspace/snapshots';
import { Trash } from '../../src/core/workspace/trash';
import { Workspace } from '../../src/core/workspace/workspace';
import { modelFromSettings } from '../../src/extension/modelFromSettings';
import { vscodeLmClient } from '../../src/extension/vscodeLmClient';
import { withTimeout } from './peon';

// Peon's vscode.lm client against a real chat model provider in this extension host:
// the scripted model of test/fixtures/lm-provider, contributed through VS Code 1.99's
// Language Model API. The whole loop runs: stream, tool call, the real tool session, the
// result back as a tool-result part, the final answer.
interface Recorded {
  tools: string[];
  messages: { role: string; parts: { type: string; value?: string; callId?: string; name?: string; input?: unknown; content?: string[] }[] }[];
}

const script = (...replies: unknown[]) => vscode.commands.executeCommand('peonTestLm.script', ...replies);
const recorded = async (): Promise<Recorded[]> => (await vscode.commands.executeCommand<Recorded[]>('peonTestLm.requests')) ?? [];

async function scriptedModel(): Promise<vscode.LanguageModelChat> {
  const fixture = vscode.extensions.getExtension('peon-test.peon-test-lm');
  if (!fixture) throw new Error('the scripted model extension (test/fixtures/lm-provider) is not installed');
  await fixture.activate();
  for (let i = 0; i < 50; i++) {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'peon-test', family: 'scripted' });
    if (model) return model;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the scripted model never appeared in vscode.lm');
}

function turn(model: vscode.LanguageModelChat, root: string, prompt: string, signal = new AbortController().signal) {
  const tools = builtinRegistry();
  const specs = tools.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const session = new CallPipeline(
    tools,
    {
      signal,
      workspace: new Workspace([{ path: root }]),
      timeoutMs: 60_000,
      limits: DEFAULT_LIMITS,
      snapshots: new FileSnapshots(),
      trash: new Trash(fs.mkdtempSync(path.join(os.tmpdir(), 'peon-lm-trash-'))),
      agent: 'main',
      ripgrep: undefined,
      settings: resolveSettings({ user: {}, workspace: {} }).values,
    },
    async () => ({ approved: true }),
  );
  const events: LoopEvent[] = [];
  const history: HistoryItem[] = [];
  const done = runAgentTurn(history, prompt, { client: vscodeLmClient(model), session, system: 'You are Peon (test).', tools: specs, signal, onEvent: (e) => events.push(e) });
  return { events, history, done };
}

suite("VS Code's language models (vscode.lm)", () => {
  test('a scripted conversation with a read call completes: text, the tool result back to the model, the answer', async () => {
    const model = await scriptedModel();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-lm-ws-'));
    fs.writeFileSync(path.join(root, 'NOTES.md'), 'The build is green.\n');
    const before = (await recorded()).length;
    await script({ text: 'Let me look at the notes.', toolCalls: [{ id: 'call-1', name: 'read', input: { path: 'NOTES.md' } }] }, { text: 'The notes say the build is green.' });

    const { events, history, done } = turn(model, root, 'What do the notes say?');
    const result = await withTimeout(done, 20_000, 'the vscode.lm turn');
    assert.equal(result.reason, 'end_turn');
    assert.equal(result.text, 'The notes say the build is green.');
    assert.equal(events.filter((e) => e.type === 'text').map((e) => e.delta).join(''), 'Let me look at the notes.The notes say the build is green.');
    const toolResult = events.find((e) => e.type === 'tool_result');
    assert.deepEqual(toolResult?.type === 'tool_result' && { ok: toolResult.outcome.ok, output: toolResult.outcome.ok && toolResult.outcome.output }, { ok: true, output: '1\tThe build is green.' });
    assert.equal(history.length, 4); // user, assistant + call, tool result, assistant

    const requests = (await recorded()).slice(before);
    assert.equal(requests.length, 2);
    assert.ok(requests[0]!.tools.includes('read') && requests[0]!.tools.includes('bash'), 'the tools are offered');
    // The system prompt leads as a user message (the API has no system role), then the prompt.
    assert.deepEqual(requests[0]!.messages.map((m) => [m.role, m.parts[0]?.value]), [['user', 'You are Peon (test).'], ['user', 'What do the notes say?']]);
    // The second request carries the call and its result, paired by id.
    const [, , call, answer] = requests[1]!.messages;
    assert.deepEqual(call?.parts.map((p) => [p.type, p.callId, p.name, p.input]), [['text', undefined, undefined, undefined], ['tool_call', 'call-1', 'read', { path: 'NOTES.md' }]]);
    assert.deepEqual(answer?.parts, [{ type: 'tool_result', callId: 'call-1', content: ['1\tThe build is green.'] }]);

    // Usage comes from the model's own tokenizer (the fixture counts 4 characters a token).
    const usage = events.filter((e) => e.type === 'usage');
    assert.equal(usage.length, 2);
    for (const u of usage) assert.ok(u.type === 'usage' && u.turn.inputTokens > 0 && u.turn.outputTokens > 0, JSON.stringify(u));
    const last = usage[1];
    assert.equal(last?.type === 'usage' && last.turn.outputTokens, Math.ceil('The notes say the build is green.'.length / 4));
  });

  test('Stop during a stalled stream ends the turn as cancelled, at once', async () => {
    const model = await scriptedModel();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-lm-ws-'));
    await script({ text: 'Thinking', stall: true });
    const controller = new AbortController();
    const { events, done } = turn(model, root, 'think forever', controller.signal);
    for (let i = 0; i < 100 && !events.some((e) => e.type === 'text'); i++) await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    controller.abort();
    const result = await withTimeout(done, 5_000, 'the cancelled turn');
    assert.equal(result.reason, 'cancelled');
    assert.ok(Date.now() - started < 2_000, 'cancelled within 2 s');
  });

  test('settings naming vscode-lm pick that model; an unknown id says how to choose one', async () => {
    const model = await scriptedModel();
    const secrets = {} as vscode.SecretStorage;
    const chosen = await modelFromSettings({ 'peon.model.provider': 'vscode-lm', 'peon.model.id': model.id }, secrets);
    assert.ok('stream' in chosen, JSON.stringify(chosen));
    assert.equal(chosen.provider, 'vscode-lm');
    assert.equal(chosen.model, model.id);
    assert.equal(chosen.contextWindow, 64000);
    const missing = await modelFromSettings({ 'peon.model.provider': 'vscode-lm', 'peon.model.id': 'no-such-model' }, secrets);
    assert.ok('problem' in missing && missing.problem.includes('Peon: Select Model'), JSON.stringify(missing));
  });
});
