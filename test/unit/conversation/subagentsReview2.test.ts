// Second hostile review of subagents: each test was a break still open after the first
// review's fixes, now closed.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ApprovalRequest, Approver } from '../../../src/core/permissions/approvals';
import type { LoopEvent } from '../../../src/core/agent/loop';
import { AgentStore } from '../../../src/core/sessions/agentStore';
import type { Conversation } from '../../../src/core/conversation/conversation';
import { PanelAgents } from '../../../src/extension/panelAgents';
import type { HostMessage } from '../../../src/shared/messages';
import { makeWorkspace, tempDir } from '../tools/toolTestContext';
import { conversationIn } from './conversationTestKit';
import { call, say, scriptedModel, watchAgents } from './subagentTestKit';

const model = scriptedModel();
const { client, requestsOf } = model;

describe('bounds', () => {
  test('maxConcurrent: a settling parent that resumes does not take back a slot another child got meanwhile', async () => {
    const agents = watchAgents();
    const atResume: string[][] = [];
    // eslint-disable-next-line prefer-const -- the hooks below read it once it is assigned
    let conversation!: Conversation;
    let leadPrompts = 0;
    // The person approves, in an order that makes `other` (main's) queue behind `helper` (lead's).
    const approve: Approver = async (request) => {
      if (request.agent === 'helper') await agents.until((a) => a.name === 'other' && a.status === 'pending');
      else await agents.until((a) => a.name === 'helper' && a.status === 'pending');
      return { approved: true };
    };
    const onAgentEvent = (name: string, event: LoopEvent): void => {
      // lead's settle loop sends helper's report: lead runs again. Who runs at that moment?
      if (name === 'lead' && event.type === 'prompt' && ++leadPrompts === 2) atResume.push(conversation.subagents.list().filter((a) => a.status === 'running').map((a) => a.name));
    };
    conversation = conversationIn(makeWorkspace(), { user: { 'peon.subagents.maxConcurrent': 1, 'peon.subagents.maxSeconds': 60 }, hooks: { approve, onAgent: agents.onAgent, onAgentEvent } });
    model.server.script(
      call('task', { name: 'lead', subagent_type: 'orchestrator', prompt: 'Split it.', background: true }),
      call('bash', { command: 'touch m' }),
      call('task', { name: 'other', subagent_type: 'explorer', prompt: 'Look.', background: true }),
      say('ok'),
    );
    model.server.route('lead', call('task', { name: 'helper', subagent_type: 'developer', prompt: 'Make h.', background: true }), say('Waiting for helper.'), say('lead resumed'));
    model.server.route('helper', call('bash', { command: 'touch h' }), say('helper done'));
    model.server.route('other', { stall: true });
    try {
      await conversation.turn('go', client(), () => {});
      await agents.until((a) => a.name === 'helper' && a.status === 'completed');
      // The slot helper freed went to other (it waited first); lead goes on only when other ends.
      await agents.until((a) => a.name === 'other' && a.status === 'running');
      conversation.subagents.stop('other');
      await agents.until((a) => a.name === 'lead' && a.status !== 'running' && a.status !== 'pending');
      expect(atResume).toEqual([['lead']]); // never two at once with peon.subagents.maxConcurrent = 1
    } finally {
      conversation.stop();
      await conversation.subagents.idle();
    }
  });
});

describe('grants', () => {
  test("a child's plan grants are listed in the panel and the person can revoke them", async () => {
    const root = makeWorkspace();
    const asked: string[] = [];
    // eslint-disable-next-line prefer-const -- the hooks below read it once it is assigned
    let conversation!: Conversation;
    let listed: unknown[] | undefined;
    const approve: Approver = async (request: ApprovalRequest) => (asked.push(`${request.agent}:${request.tool}`), { approved: true, ...(request.tool === 'exitplanmode' ? { scope: 'session' as const } : {}) });
    const onAgentEvent = (name: string, event: LoopEvent): void => {
      if (name !== 'lead' || event.type !== 'tool_result' || event.call.name !== 'exitplanmode') return;
      // The plan is approved with its grants: what the panel lists now (ChatViewProvider posts conversation.state.grants), and the person revokes it.
      listed = conversation.state.grants.shown();
      conversation.state.grants.revoke('bash', 'touch granted', 'lead');
    };
    conversation = conversationIn(root, { hooks: { approve, onAgentEvent } });
    model.server.script(call('task', { name: 'lead', subagent_type: 'orchestrator', prompt: 'Plan, then do.' }), say('ok'));
    model.server.route('lead', call('enterplanmode', {}), call('exitplanmode', { plan: '# Do\ntouch granted', allow: { commands: ['touch granted'] } }), call('bash', { command: 'touch granted' }), say('done'));
    await conversation.turn('go', client(), () => {});
    expect.soft(listed).toEqual([expect.objectContaining({ tool: 'bash', pattern: 'touch granted', agent: 'lead', origin: 'plan' })]);
    expect.soft(asked).toEqual(['lead:enterplanmode', 'lead:exitplanmode', 'lead:bash']);
    expect.soft(fs.existsSync(path.join(root, 'granted'))).toBe(true); // approved on its card, after the revoke
  });
});

describe('plan mode', () => {
  test('the main agent enters plan mode while its background developer works: the developer changes nothing from then on', async () => {
    const root = makeWorkspace();
    const agents = watchAgents();
    // eslint-disable-next-line prefer-const -- the hooks below read it once it is assigned
    let conversation!: Conversation;
    const approve: Approver = async (request) => {
      // The child's card: the person approves it once the main agent is in plan mode.
      if (request.agent === 'dev') while (conversation.state.current !== 'plan') await new Promise<void>((resolve) => conversation.state.onChange(() => resolve()));
      return { approved: true };
    };
    conversation = conversationIn(root, { hooks: { approve, onAgent: agents.onAgent } });
    model.server.script(call('task', { name: 'dev', subagent_type: 'developer', prompt: 'Make x.', background: true }), call('enterplanmode', {}), say('Planning now.'));
    model.server.route('dev', call('bash', { command: 'touch x' }), say('made x'));
    await conversation.turn('go', client(), () => {});
    await agents.until((a) => a.name === 'dev' && a.status === 'completed');
    expect(conversation.state.current).toBe('plan');
    expect(fs.existsSync(path.join(root, 'x'))).toBe(false);
  });
});

describe('the panel', () => {
  test("a resumed chat's strip lists its agents (completed and interrupted), and one can be opened", async () => {
    const dir = path.join(tempDir('peon-agents-'), 's.agents');
    const before = conversationIn(makeWorkspace(), { hooks: { agentsDir: () => dir } });
    model.server.script(call('task', { name: 'scout', subagent_type: 'explorer', prompt: 'Look.' }), say('ok'));
    model.server.route('scout', say('found it'));
    await before.turn('go', client(), () => {});
    const saved = new AgentStore(dir).load();
    expect(saved.map((a) => a.record.status)).toEqual(['completed']);
    // ChatViewProvider.resume(id): agents.restore(saved); postInit(); then ensureConversation() with the
    // same hooks it gives every conversation: onAgent posts only `if (this.conversation === conversation)`.
    const posted: HostMessage[] = [];
    const panel = new PanelAgents((m) => posted.push(m), () => {});
    panel.restore(saved);
    panel.postAll();
    // eslint-disable-next-line prefer-const -- the hook reads it once it is assigned
    let current: Conversation | undefined;
    const after: Conversation = conversationIn(makeWorkspace(), { hooks: { agentsDir: () => dir, onAgent: (info) => void (current === after && panel.update(info)) }, extra: { agents: saved } });
    current = after;
    // ensureConversation(), right after it assigns the conversation: the runtime's records go to the strip.
    for (const info of after.subagents.list()) panel.update(info);
    await new Promise((resolve) => setImmediate(resolve)); // the strip posts once per tick
    panel.open('scout');
    const strip = posted.filter((m) => m.type === 'agents').at(-1) as Extract<HostMessage, { type: 'agents' }>;
    expect.soft(strip.agents.map((a) => a.name)).toEqual(['scout']);
    expect.soft(posted.some((m) => m.type === 'agentView')).toBe(true);
    expect.soft(after.subagents.list().map((a) => a.name)).toEqual(['scout']); // the runtime has it
  });
});

void requestsOf;

describe('usage a provider leaves out', () => {
  test("an OpenAI-compatible server whose usage chunk has no completion_tokens: the child's record stays valid, and its token bound still holds", async () => {
    const http = await import('node:http');
    const { openaiClient } = await import('../../../src/core/model/openaiClient');
    const { parseHostMessage } = await import('../../../src/shared/messages');
    // Each request: one read call of the child's (or the main agent's task call), then usage without completion_tokens (as some local servers send it).
    let n = 0;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const child = body.includes('You are the subagent');
        const first = !child && n++ === 0;
        const call = first ? { name: 'task', arguments: JSON.stringify({ name: 'reader', subagent_type: 'explorer', prompt: 'Read a.txt forever.' }) } : child ? { name: 'read', arguments: JSON.stringify({ path: 'a.txt' }) } : undefined;
        const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ role: 'assistant', content: call ? '' : 'ok' }));
        if (call) res.write(chunk({ tool_calls: [{ index: 0, id: `c${Math.random()}`, type: 'function', function: call }] }));
        res.write(chunk({}, call ? 'tool_calls' : 'stop'));
        res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 600, total_tokens: 620 } })}\n\n`);
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    const agents = watchAgents();
    // 1000 tokens per task: the second request (1200 tokens in all) should stop it.
    const conversation = conversationIn(makeWorkspace({ 'a.txt': 'x' }), { user: { 'peon.subagents.maxTokens': 1000, 'peon.subagents.maxTurns': 8 }, hooks: { onAgent: agents.onAgent } });
    try {
      await conversation.turn('go', openaiClient({ apiKey: 'k', model: 'm', baseUrl: url }), () => {});
      const reader = conversation.subagents.list()[0]!;
      // What happens: tokens is NaN; the 'agents' message fails the webview's schema (the strip freezes);
      // the NaN never reaches the bound, so the child runs all 8 turns and ends on the turn bound.
      expect.soft(Number.isFinite(reader.tokens)).toBe(true);
      expect.soft(parseHostMessage({ type: 'agents', agents: conversation.subagents.list() }).ok).toBe(true);
      expect.soft(reader.stoppedBy ?? '').toContain('peon.subagents.maxTokens');
    } finally {
      server.close();
    }
  });
});
