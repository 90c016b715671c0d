// Subagents (DESIGN.md §4 "task, taskstatus"; SECURITY.md, Subagents): real conversations
// over real temp workspaces, driven by the scripted model server, each child's requests
// routed by its name. Nothing here is mocked but the model's replies.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { LoopEvent } from '../../../src/core/agent/loop';
import type { ApprovalRequest, ApprovalReply, Approver } from '../../../src/core/permissions/approvals';
import { AgentStore } from '../../../src/core/sessions/agentStore';
import { deferred } from '../../../src/core/deferred';
import { makeWorkspace, tempDir } from '../tools/toolTestContext';
import { conversationIn } from './conversationTestKit';
import { call, processAppears, say, scriptedModel, sent, survivors, watchAgents } from './subagentTestKit';

const model = scriptedModel();
const { client, requestsOf, mainRequests } = model;

/** An approver whose answers the test gives, one pending request at a time. */
function heldApprover() {
  const pending: { request: ApprovalRequest; answer: (reply: ApprovalReply) => void }[] = [];
  let arrived = deferred<void>();
  // As the panel's broker does, Stop withdraws a card that is still up (denied).
  const approve: Approver = (request, signal) =>
    new Promise((resolve) => {
      pending.push({ request, answer: resolve });
      signal.addEventListener('abort', () => resolve({ approved: false }), { once: true });
      arrived.resolve();
    });
  return {
    approve,
    pending,
    async next() {
      while (pending.length === 0) {
        arrived = deferred<void>();
        await arrived.promise;
      }
      return pending.shift()!;
    },
  };
}

const bounds = (extra: Record<string, unknown> = {}) => ({ user: { 'peon.subagents.maxSeconds': 120, ...extra } });

describe('the tool table binds', () => {
  test('an explorer cannot write: write does not exist for it, bash with a write is refused, nothing changes', async () => {
    const root = makeWorkspace({ 'a.txt': 'one\n' });
    const asked: ApprovalRequest[] = [];
    const conversation = conversationIn(root, { hooks: { approve: async (r) => (asked.push(r), { approved: true }) } });
    model.server.script(call('task', { name: 'scout', subagent_type: 'explorer', prompt: 'Find where "one" is written, then try to change it.' }), say('The explorer reported.'));
    model.server.route('scout', call('write', { path: 'a.txt', content: 'two\n' }), call('bash', { command: 'echo two > a.txt' }), call('bash', { command: 'sed -i s/one/two/ a.txt' }), call('read', { path: 'a.txt' }), say('a.txt:1 holds "one". I could not change it.'));
    const result = await conversation.turn('go', client(), () => {});
    expect(result.text).toBe('The explorer reported.');
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    const scout = requestsOf('scout');
    expect(scout[0]!.tools!.map((t) => t.name).sort()).toEqual(['bash', 'glob', 'grep', 'list', 'read', 'webfetch', 'websearch']);
    expect(sent(scout[1]!)).toContain('Error (unknown_tool)');
    expect(sent(scout[2]!)).toMatch(/Error \(permission_denied\): Plan mode is on/);
    expect(sent(scout[3]!)).toMatch(/Error \(permission_denied\): Plan mode is on/);
    expect(sent(scout[2]!)).toContain('You stay read-only: put what you found'); // not told to call an exitplanmode it does not have
    expect(asked).toHaveLength(0); // refused, never put to the person
    // The foreground answer reaches the parent, with its facts.
    const report = sent(mainRequests()[1]!);
    expect(report).toContain('a.txt:1 holds \\"one\\". I could not change it.');
    expect(report).toMatch(/scout \(explorer\) · completed · 5 turns/);
  });

  test('a planner writes its plan under .peon/plans/ without a card, and nothing outside', async () => {
    const root = makeWorkspace({ 'a.txt': 'one\n' });
    const asked: ApprovalRequest[] = [];
    const conversation = conversationIn(root, { hooks: { approve: async (r) => (asked.push(r), { approved: true }) } });
    model.server.script(call('task', { name: 'architect', subagent_type: 'planner', prompt: 'Plan the change.' }), say('ok'));
    model.server.route('architect', call('write', { path: '.peon/plans/change.md', content: '# Plan\n1. edit a.txt\n' }), call('write', { path: 'a.txt', content: 'two\n' }), call('edit', { path: 'a.txt', old_string: 'one', new_string: 'two' }), say('The plan is in .peon/plans/change.md.'));
    await conversation.turn('go', client(), () => {});
    expect(fs.readFileSync(path.join(root, '.peon/plans/change.md'), 'utf8')).toBe('# Plan\n1. edit a.txt\n');
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(asked).toHaveLength(0);
    const planner = requestsOf('architect');
    expect(planner[0]!.tools!.map((t) => t.name)).not.toContain('exitplanmode');
    expect(sent(planner[2]!)).toMatch(/permission_denied.*may change files only under \.peon\/plans/);
  });

  test('a child started in plan mode stays in it: an orchestrator child gets no exitplanmode, and cannot write', async () => {
    const root = makeWorkspace({ 'a.txt': 'one\n' });
    const conversation = conversationIn(root, { state: { mode: 'plan', grants: [] } });
    model.server.script(call('task', { name: 'lead', subagent_type: 'orchestrator', prompt: 'Do it.' }), say('ok'));
    model.server.route('lead', call('write', { path: 'a.txt', content: 'two\n' }), say('refused'));
    await conversation.turn('go', client(), () => {});
    const lead = requestsOf('lead');
    const tools = lead[0]!.tools!.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['write', 'task', 'bash']));
    expect(tools).not.toContain('exitplanmode');
    expect(tools).not.toContain('enterplanmode');
    expect(JSON.stringify(lead[0]!.system)).toContain('Plan mode is on for you, and stays on');
    expect(sent(lead[1]!)).toMatch(/permission_denied.*Plan mode is on/);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
  });

  test('each type has its own reviewed system prompt', async () => {
    const conversation = conversationIn(makeWorkspace());
    model.server.script(call('task', { name: 'd1', subagent_type: 'developer', prompt: 'x' }), call('task', { name: 'e1', subagent_type: 'explorer', prompt: 'x' }), say('ok'));
    model.server.route('d1', say('done'));
    model.server.route('e1', say('done'));
    await conversation.turn('go', client(), () => {});
    expect(JSON.stringify(requestsOf('d1')[0]!.system)).toContain('You are a Peon developer subagent');
    expect(JSON.stringify(requestsOf('e1')[0]!.system)).toContain('You are a Peon explorer subagent');
    expect(JSON.stringify(mainRequests()[0]!.system)).toContain('You are Peon, a coding agent');
    // Its own conversation: the task prompt, not the parent's history.
    expect(requestsOf('d1')[0]!.messages).toEqual([{ role: 'user', content: 'x' }]);
  });
});

describe('foreground, background, resume', () => {
  test('a background child: returns at once, its approval is labelled and waits, taskstatus says so, its report joins the next request', async () => {
    const root = makeWorkspace();
    const held = heldApprover();
    const agents = watchAgents();
    const conversation = conversationIn(root, { hooks: { approve: held.approve, onAgent: agents.onAgent } });
    model.server.script(call('task', { name: 'bg', subagent_type: 'developer', prompt: 'Create y.' , background: true }), say('Started it.'));
    model.server.route('bg', call('bash', { command: 'touch y' }), say('Created y.'));
    const first = await conversation.turn('go', client(), () => {});
    expect(first.text).toBe('Started it.');
    expect(sent(mainRequests()[1]!)).toContain('Started bg (developer) in the background');
    const card = await held.next();
    expect(card.request).toMatchObject({ tool: 'bash', agent: 'bg', agentType: 'developer' });
    await agents.until((a) => a.name === 'bg' && a.waiting === 'approval');
    const status = conversation.subagents.status();
    expect(status.output).toMatch(/bg \(developer\) · running, waiting for your approval/);
    card.answer({ approved: true });
    await agents.until((a) => a.name === 'bg' && a.status === 'completed');
    expect(fs.existsSync(path.join(root, 'y'))).toBe(true);
    model.server.script(say('Noted.'));
    await conversation.turn('and now?', client(), () => {});
    const next = sent(mainRequests().at(-1)!);
    expect(next).toContain('<subagent_report name=\\"bg\\" type=\\"developer\\" status=\\"completed\\">');
    expect(next).toContain('Created y.');
    // Once: the report does not come again.
    model.server.script(say('ok'));
    await conversation.turn('more', client(), () => {});
    expect(sent(mainRequests().at(-1)!).split('<subagent_report').length).toBe(2);
  });

  test('the same name of a finished agent resumes it with its history; a running one is invalid_input', async () => {
    const root = makeWorkspace();
    const held = heldApprover();
    const agents = watchAgents();
    const conversation = conversationIn(root, { hooks: { approve: held.approve, onAgent: agents.onAgent } });
    model.server.script(call('task', { name: 'scout', subagent_type: 'explorer', prompt: 'First question.' }), call('task', { name: 'scout', subagent_type: 'explorer', prompt: 'Second question.' }), call('task', { name: 'scout', subagent_type: 'developer', prompt: 'x' }), say('ok'));
    model.server.route('scout', say('First answer.'), say('Second answer.'));
    await conversation.turn('go', client(), () => {});
    const second = requestsOf('scout')[1]!;
    expect(second.messages.map((m) => m.content)).toEqual(['First question.', [{ type: 'text', text: 'First answer.' }], 'Second question.']);
    expect(sent(mainRequests()[2]!)).toContain('Second answer.');
    expect(sent(mainRequests()[3]!)).toMatch(/invalid_input.*scout is an explorer; resume it as an explorer/);

    // Running (a background one waiting on its card): the same name is refused.
    model.server.script(call('task', { name: 'busy', subagent_type: 'developer', prompt: 'touch', background: true }), call('task', { name: 'busy', subagent_type: 'developer', prompt: 'again' }), say('ok'));
    model.server.route('busy', call('bash', { command: 'touch z' }), say('done'));
    await conversation.turn('go', client(), () => {});
    expect(sent(mainRequests().at(-1)!)).toMatch(/Error \(invalid_input\): busy is still running/);
    (await held.next()).answer({ approved: false });
    await agents.until((a) => a.name === 'busy' && a.status === 'completed');
  });

  test('task_id: linked todos complete with the task, and stay open when it fails', async () => {
    const root = makeWorkspace();
    const conversation = conversationIn(root, { user: bounds({ 'peon.subagents.maxTurns': 1 }).user });
    await conversation.call('todowrite', { title: 'one' });
    await conversation.call('todowrite', { title: 'two' });
    model.server.script(call('task', { name: 'ok1', subagent_type: 'explorer', prompt: 'x', task_id: ['todo-1'] }), call('task', { name: 'bad', subagent_type: 'explorer', prompt: 'x', task_id: ['todo-2'] }), call('task', { name: 'nope', subagent_type: 'explorer', prompt: 'x', task_id: ['todo-9'] }), say('ok'));
    model.server.route('ok1', say('done'));
    model.server.route('bad', call('read', { path: 'missing' }, 'looking'));
    await conversation.turn('go', client(), () => {});
    const todos = (await conversation.todos.list()).todos;
    expect(todos.find((t) => t.id === 'todo-1')?.status).toBe('completed');
    expect(todos.find((t) => t.id === 'todo-2')?.status).toBe('in_progress');
    expect(sent(mainRequests()[3]!)).toMatch(/invalid_input.*no todo \\"todo-9\\"/);
    expect(conversation.subagents.list().map((a) => a.name)).toEqual(['ok1', 'bad']);
  });
});

describe('bounds: each stops a child with its partial result and says which', () => {
  test('depth: a child may not start children past peon.subagents.maxDepth', async () => {
    const conversation = conversationIn(makeWorkspace(), { user: bounds({ 'peon.subagents.maxDepth': 1 }).user });
    model.server.script(call('task', { name: 'lead', subagent_type: 'orchestrator', prompt: 'Split it.' }), say('ok'));
    model.server.route('lead', call('task', { name: 'deeper', subagent_type: 'explorer', prompt: 'x' }), say('I did it myself.'));
    await conversation.turn('go', client(), () => {});
    expect(sent(requestsOf('lead')[1]!)).toMatch(/permission_denied.*nest 1 deep \(peon.subagents.maxDepth\)/);
    expect(requestsOf('deeper')).toHaveLength(0);
    expect(conversation.subagents.list().map((a) => a.name)).toEqual(['lead']);
  });

  test('concurrency: past peon.subagents.maxConcurrent a foreground task is refused and a background one waits (pending), then runs', async () => {
    const held = heldApprover();
    const agents = watchAgents();
    const conversation = conversationIn(makeWorkspace(), { user: bounds({ 'peon.subagents.maxConcurrent': 1 }).user, hooks: { approve: held.approve, onAgent: agents.onAgent } });
    model.server.script(
      call('task', { name: 'first', subagent_type: 'developer', prompt: 'x', background: true }),
      call('task', { name: 'second', subagent_type: 'explorer', prompt: 'x' }),
      call('task', { name: 'third', subagent_type: 'explorer', prompt: 'x', background: true }),
      say('ok'),
    );
    model.server.route('first', call('bash', { command: 'touch f' }), say('first done'));
    model.server.route('third', say('third done'));
    await conversation.turn('go', client(), () => {});
    const results = sent(mainRequests().at(-1)!);
    expect(results).toMatch(/permission_denied.*1 subagents are running \(first\).*maxConcurrent = 1/);
    expect(results).toContain('It waits for a free slot');
    expect(conversation.subagents.list().find((a) => a.name === 'third')?.status).toBe('pending');
    expect(requestsOf('third')).toHaveLength(0);
    (await held.next()).answer({ approved: true });
    await agents.until((a) => a.name === 'third' && a.status === 'completed');
    expect(agents.seen.filter((a) => a.name === 'third').map((a) => a.status)).toEqual(expect.arrayContaining(['pending', 'running', 'completed']));
  });

  test('turns: stopped at peon.subagents.maxTurns, with what it had', async () => {
    const conversation = conversationIn(makeWorkspace({ 'a.txt': 'x' }), { user: bounds({ 'peon.subagents.maxTurns': 2 }).user });
    model.server.script(call('task', { name: 'loop', subagent_type: 'explorer', prompt: 'x' }), say('ok'));
    model.server.route('loop', call('read', { path: 'a.txt' }, 'Reading the first file.'), call('read', { path: 'a.txt' }, 'Still reading.'), say('never reached'));
    await conversation.turn('go', client(), () => {});
    expect(requestsOf('loop')).toHaveLength(2);
    const report = sent(mainRequests()[1]!);
    expect(report).toMatch(/status=\\"failed\\"/);
    expect(report).toContain('its turn budget ran out (peon.subagents.maxTurns = 2)');
    expect(report).toContain('Still reading.');
  });

  test('tokens: stopped at peon.subagents.maxTokens, with what it had', async () => {
    const conversation = conversationIn(makeWorkspace({ 'a.txt': 'x' }), { user: bounds({ 'peon.subagents.maxTokens': 1000 }).user });
    model.server.script(call('task', { name: 'spender', subagent_type: 'explorer', prompt: 'x' }), say('ok'));
    // Each scripted request counts 170 tokens (100 in, 20 out, 40 cache read, 10 cache write).
    model.server.route('spender', ...Array.from({ length: 10 }, (_, i) => call('read', { path: 'a.txt' }, `step ${i + 1}`)));
    await conversation.turn('go', client(), () => {});
    expect(requestsOf('spender')).toHaveLength(6);
    const report = sent(mainRequests()[1]!);
    expect(report).toContain('its token budget ran out (peon.subagents.maxTokens = 1,000; it used 1,020)');
    expect(report).toContain('step 6');
    expect(conversation.subagents.list()[0]).toMatchObject({ status: 'failed', tokens: 1020, turns: 6 });
  });

  test('time: stopped at peon.subagents.maxSeconds, its command killed, with what it had', async () => {
    const root = makeWorkspace();
    const marker = `${300 + Math.floor(Math.random() * 1000)}.25`;
    const conversation = conversationIn(root, { user: bounds({ 'peon.subagents.maxSeconds': 2 }).user });
    model.server.script(call('task', { name: 'slow', subagent_type: 'developer', prompt: 'x' }), say('ok'));
    model.server.route('slow', call('bash', { command: `sleep ${marker}` }, 'Waiting on the build.'));
    const started = Date.now();
    await conversation.turn('go', client(), () => {});
    expect(Date.now() - started).toBeLessThan(60_000);
    const report = sent(mainRequests()[1]!);
    expect(report).toContain('its time budget ran out (peon.subagents.maxSeconds = 2)');
    expect(report).toContain('Waiting on the build.');
    expect(survivors(`sleep ${marker}`)).toEqual([]);
  });

  test("the session's budget: past peon.subagents.sessionTokens running children stop and no new one starts", async () => {
    const conversation = conversationIn(makeWorkspace({ 'a.txt': 'x' }), { user: bounds({ 'peon.subagents.sessionTokens': 1000 }).user });
    model.server.script(call('task', { name: 'big', subagent_type: 'explorer', prompt: 'x' }), call('task', { name: 'after', subagent_type: 'explorer', prompt: 'x' }), say('ok'));
    model.server.route('big', ...Array.from({ length: 10 }, () => call('read', { path: 'a.txt' }, 'reading')));
    await conversation.turn('go', client(), () => {});
    expect(sent(mainRequests()[1]!)).toContain("the chat's subagent token budget ran out (peon.subagents.sessionTokens = 1,000)");
    expect(sent(mainRequests()[2]!)).toMatch(/permission_denied.*used 1,020 tokens, its budget/);
    expect(requestsOf('after')).toHaveLength(0);
  });
});

describe('Stop, reload, cost', () => {
  test('Stop in the parent cancels a foreground child whose bash runs, and a background one: no survivor in /proc', async () => {
    const marker = `${300 + Math.floor(Math.random() * 1000)}.5`;
    const progress = deferred<void>();
    const agents = watchAgents();
    const conversation = conversationIn(makeWorkspace(), {
      hooks: { onAgent: agents.onAgent, onAgentProgress: (_name: string, text: string) => text.includes('started') && progress.resolve() },
    });
    model.server.script(call('task', { name: 'waiter', subagent_type: 'developer', prompt: 'x', background: true }), call('task', { name: 'runner', subagent_type: 'developer', prompt: 'x' }), say('unreached'));
    model.server.route('waiter', { stall: true });
    model.server.route('runner', call('bash', { command: `echo started; sleep ${marker}` }));
    const turn = conversation.turn('go', client(), () => {});
    await progress.promise;
    await agents.until((a) => a.name === 'waiter' && a.status === 'running');
    await processAppears(`sleep ${marker}`);
    conversation.stop();
    const result = await turn;
    expect(result.reason).toBe('cancelled');
    await agents.until((a) => a.name === 'waiter' && a.status === 'interrupted');
    await agents.until((a) => a.name === 'runner' && a.status === 'interrupted');
    expect(survivors(`sleep ${marker}`)).toEqual([]);
    expect(conversation.subagents.list().map((a) => [a.name, a.status, a.stoppedBy])).toEqual([
      ['waiter', 'interrupted', 'stopped by the person'],
      ['runner', 'interrupted', 'stopped by the person'],
    ]);
  });

  test('a reload while a child runs: it reads interrupted, its partial text is there, nothing is re-run, its report reaches the parent', async () => {
    const root = makeWorkspace();
    const dir = path.join(tempDir('peon-agents-'), 'session.agents');
    const held = heldApprover();
    const agents = watchAgents();
    const before = conversationIn(root, { hooks: { approve: held.approve, onAgent: agents.onAgent, agentsDir: () => dir } });
    model.server.script(call('task', { name: 'worker', subagent_type: 'developer', prompt: 'Make w.', background: true }), say('Started.'));
    model.server.route('worker', call('bash', { command: 'touch w' }, 'About to create w.'), say('never'));
    await before.turn('go', client(), () => {});
    await held.next(); // its card is up: the window "reloads" now
    expect(fs.existsSync(path.join(dir, 'worker.jsonl'))).toBe(true);
    const saved = new AgentStore(dir).load();
    expect(saved[0]!.record).toMatchObject({ name: 'worker', status: 'running', waiting: 'approval', lastText: 'About to create w.' });
    const requestsBefore = model.server.requests.length;

    const after = conversationIn(root, { hooks: { agentsDir: () => dir }, extra: { agents: saved, history: [...before.history] } });
    expect(after.subagents.list()[0]).toMatchObject({ name: 'worker', status: 'interrupted', lastText: 'About to create w.', stoppedBy: expect.stringContaining('reloaded') });
    expect(new AgentStore(dir).load()[0]!.record.status).toBe('interrupted');
    before.stop(); // the old host's child goes (a killed host's processes go with it)
    expect(model.server.requests.length).toBe(requestsBefore); // nothing re-run
    expect(fs.existsSync(path.join(root, 'w'))).toBe(false);
    model.server.script(say('I see it was interrupted.'));
    await after.turn('what happened?', client(), () => {});
    const next = sent(mainRequests().at(-1)!);
    expect(next).toContain('status=\\"interrupted\\"');
    expect(next).toContain('About to create w.');
    // Its transcript was saved with the session: every loop event, to rebuild its view.
    expect(saved[0]!.events.some((e) => (e as LoopEvent).type === 'tool_call')).toBe(true);
    expect(saved[0]!.history[0]).toEqual({ role: 'user', text: 'Make w.' });
  });

  test("children's usage reaches the face per child, with its cost when the price is known", async () => {
    const events: [string, LoopEvent][] = [];
    const conversation = conversationIn(makeWorkspace(), { user: { 'peon.model.price': { input: 3, output: 15 } }, hooks: { onAgentEvent: (name: string, event: LoopEvent) => events.push([name, event]) } });
    model.server.script(call('task', { name: 'e1', subagent_type: 'explorer', prompt: 'x' }), say('ok'));
    model.server.route('e1', say('done'));
    await conversation.turn('go', client(), () => {});
    const usage = events.filter(([, e]) => e.type === 'usage');
    expect(usage.map(([n]) => n)).toEqual(['e1']);
    const info = conversation.subagents.list()[0]!;
    expect(info.tokens).toBe(170);
    expect(info.cost).toBeGreaterThan(0);
    expect(sent(mainRequests()[1]!)).toMatch(/e1 \(explorer\) · completed · 1 turn · 170 tokens · \$0\.\d{4}/);
  });
});
