// Hostile review of subagents: what was tried and held (these pass).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ApprovalBroker, type ApprovalRequest, type Approver } from '../../../src/core/permissions/approvals';
import { resolveSettings } from '../../../src/core/settings';
import type { AgentInfo } from '../../../src/shared/messages';
import { deferred } from '../../../src/core/deferred';
import { makeWorkspace, tempDir } from '../tools/toolTestContext';
import { conversationIn } from './conversationTestKit';
import { call, processAppears, say, scriptedModel, sent, survivors, watchAgents } from './subagentTestKit';

const model = scriptedModel();
const { client, requestsOf, mainRequests } = model;

describe('explorer and planner change nothing', () => {
  test('explorer: write forms in bash are all refused, nothing appears', async () => {
    const root = makeWorkspace({ 'a.txt': 'one\n' });
    const asked: ApprovalRequest[] = [];
    const conversation = conversationIn(root, { hooks: { approve: async (r) => (asked.push(r), { approved: true }) } });
    const commands = [
      'git diff --output=o1', 'git log --outp=o2', 'echo x >| o3', 'cat a.txt | tee o4', "sed -n 'w o5' a.txt", 'find . -fprint o6', 'sort -o o7 a.txt',
      'touch o8', 'env X=1 touch o9', 'echo $(touch o10)', "bash -c 'touch o11'", 'echo o12 | xargs touch', "git -c core.pager='touch o13' log", 'cp a.txt o14',
      'cat a.txt > o15', 'echo x &> o16', 'cat <<< x > o17', 'ls; touch o18', "awk 'BEGIN{system(\"touch o19\")}'", 'python3 -c "open(\'o20\',\'w\')"',
    ];
    model.server.script(call('task', { name: 'scout', subagent_type: 'explorer', prompt: 'Try.' }), say('ok'));
    model.server.route('scout', ...commands.map((command) => call('bash', { command })), say('done'));
    await conversation.turn('go', client(), () => {});
    expect(fs.readdirSync(root).sort()).toEqual(['a.txt']);
    expect(asked).toHaveLength(0);
  });

  test('planner: ../, a symlink and a linked plans folder out of .peon/plans, a hard link, Peon config: refused or harmless', async () => {
    const outside = tempDir('peon-outside-');
    fs.writeFileSync(path.join(outside, 'victim.txt'), 'victim\n');
    const root = makeWorkspace({ 'a.txt': 'one\n', '.peon/plans/keep.md': 'k\n', 'src/b.txt': 'b\n' });
    fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(root, '.peon/plans/link.md'));
    fs.symlinkSync(outside, path.join(root, '.peon/plans/out'));
    fs.linkSync(path.join(root, 'a.txt'), path.join(root, '.peon/plans/hard.md'));
    const asked: ApprovalRequest[] = [];
    const conversation = conversationIn(root, { hooks: { approve: async (r) => (asked.push(r), { approved: true }) } });
    model.server.script(call('task', { name: 'arch', subagent_type: 'planner', prompt: 'Plan.' }), say('ok'));
    model.server.route(
      'arch',
      call('write', { path: '.peon/plans/../../a.txt', content: 'x' }),
      call('write', { path: '.peon/plans/../config.json', content: '{}' }),
      call('write', { path: '.peon/plans/link.md', content: 'x' }),
      call('write', { path: '.peon/plans/out/new.md', content: 'x' }),
      call('read', { path: '.peon/plans/hard.md' }),
      call('write', { path: '.peon/plans/hard.md', content: 'x' }),
      call('delete', { path: '.peon/plans/hard.md' }),
      call('bash', { command: 'echo x > .peon/plans/p.md' }),
      say('done'),
    );
    await conversation.turn('go', client(), () => {});
    expect(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8')).toBe('victim\n');
    expect(fs.existsSync(path.join(outside, 'new.md'))).toBe(false);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(fs.existsSync(path.join(root, '.peon/config.json'))).toBe(false);
    // Seven refusals; the hard link write asked (more than one link) — and wrote the plan file only (atomic rename).
    expect(asked.map((r) => r.tool)).toEqual(expect.arrayContaining(['write']));
  });

  test('a parent in plan mode: a developer it starts (or resumes) cannot write', async () => {
    const root = makeWorkspace({ 'a.txt': 'one\n' });
    const conversation = conversationIn(root, { state: { mode: 'plan', grants: [] } });
    model.server.script(call('task', { name: 'dev', subagent_type: 'developer', prompt: 'Do it.' }), say('ok'));
    model.server.route('dev', call('write', { path: 'a.txt', content: 'two\n' }), call('bash', { command: 'touch z' }), say('refused'));
    await conversation.turn('go', client(), () => {});
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(fs.existsSync(path.join(root, 'z'))).toBe(false);
  });
});

describe('tables and bounds', () => {
  test("a grandchild explorer gets the explorer table; a shallower caller cannot resume a deeper agent; maxDepth binds grandchildren", async () => {
    const conversation = conversationIn(makeWorkspace(), { user: { 'peon.subagents.maxDepth': 2 } });
    model.server.script(call('task', { name: 'lead', subagent_type: 'orchestrator', prompt: 'x' }), call('task', { name: 'gc', subagent_type: 'explorer', prompt: 'again' }), say('ok'));
    model.server.route('lead', call('task', { name: 'gc', subagent_type: 'explorer', prompt: 'x' }), call('task', { name: 'g2', subagent_type: 'orchestrator', prompt: 'x' }), say('done'));
    model.server.route('gc', say('found'));
    model.server.route('g2', call('task', { name: 'g3', subagent_type: 'explorer', prompt: 'x' }), say('no'));
    await conversation.turn('go', client(), () => {});
    expect(requestsOf('gc')[0]!.tools!.map((t) => t.name).sort()).toEqual(['bash', 'glob', 'grep', 'list', 'read', 'webfetch', 'websearch']);
    expect(sent(requestsOf('g2')[1]!)).toMatch(/permission_denied.*nest 2 deep/);
    expect(sent(mainRequests()[2]!)).toMatch(/invalid_input.*gc was started by lead/);
  });

  test('untrusted: a developer child gets only read-only tools', async () => {
    const conversation = conversationIn(makeWorkspace(), { trusted: false });
    model.server.script(call('task', { name: 'dev', subagent_type: 'developer', prompt: 'x' }), say('ok'));
    model.server.route('dev', say('done'));
    await conversation.turn('go', client(), () => {});
    expect(requestsOf('dev')[0]!.tools!.map((t) => t.name).sort()).toEqual(['glob', 'grep', 'list', 'mem-read', 'mem-search', 'read', 'todoread', 'webfetch', 'websearch'].filter((n) => requestsOf('dev')[0]!.tools!.some((t) => t.name === n)).sort());
    expect(requestsOf('dev')[0]!.tools!.map((t) => t.name)).not.toEqual(expect.arrayContaining(['bash']));
  });

  test('workspace settings cannot raise a bound', () => {
    const r = resolveSettings({ user: {}, workspace: { 'peon.subagents.maxDepth': 5, 'peon.subagents.maxConcurrent': 16, 'peon.subagents.sessionTokens': 1_000_000_000 } });
    expect(r.values['peon.subagents.maxDepth'] ?? 2).toBe(2);
    expect(r.values['peon.subagents.maxConcurrent'] ?? 3).toBe(3);
    expect(r.warnings.join('\n')).toContain('peon.subagents.maxDepth is ignored in workspace settings');
  });

  test('five background tasks in one model turn: never more than maxConcurrent run at once', async () => {
    const agents = watchAgents();
    const conversation = conversationIn(makeWorkspace(), { user: { 'peon.subagents.maxConcurrent': 2 }, hooks: { onAgent: agents.onAgent } });
    const names = ['b1', 'b2', 'b3', 'b4', 'b5'];
    model.server.script({ toolCalls: names.map((name, i) => ({ id: `m${i}`, name: 'task', arguments: JSON.stringify({ name, subagent_type: 'explorer', prompt: 'x', background: true }) })) }, say('ok'));
    for (const n of names) model.server.route(n, say(`${n} done`));
    let max = 0;
    const running = new Set<string>();
    const watch = (info: AgentInfo) => {
      if (info.status === 'running') running.add(info.name);
      else running.delete(info.name);
      max = Math.max(max, running.size);
    };
    const c2 = conversationIn(makeWorkspace(), { user: { 'peon.subagents.maxConcurrent': 2 }, hooks: { onAgent: (i) => (watch(i), agents.onAgent(i)) } });
    void conversation;
    await c2.turn('go', client(), () => {});
    for (const n of names) await agents.until((a) => a.name === n && a.status === 'completed');
    expect(max).toBeLessThanOrEqual(2);
  });

  test('the time bound while a card waits: the card is withdrawn (denied), the child stops with its partial result', async () => {
    const cards: string[] = [];
    const settled: string[] = [];
    const broker = new ApprovalBroker({ onRequest: (id) => cards.push(id), onSettled: (id, _r, how) => settled.push(how) });
    const conversation = conversationIn(makeWorkspace(), { user: { 'peon.subagents.maxSeconds': 2 }, hooks: { approve: broker.approve } });
    model.server.script(call('task', { name: 'dev', subagent_type: 'developer', prompt: 'x' }), say('ok'));
    model.server.route('dev', call('bash', { command: 'touch q' }, 'About to touch q.'));
    await conversation.turn('go', client(), () => {});
    expect(cards).toHaveLength(1);
    expect(settled).toEqual(['cancelled']);
    expect(sent(mainRequests()[1]!)).toContain('its time budget ran out');
    expect(sent(mainRequests()[1]!)).toContain('About to touch q.');
  });

  test("Stop ends a grandchild's bash and a pending child never starts", async () => {
    const marker = `${300 + Math.floor(Math.random() * 1000)}.125`;
    const agents = watchAgents();
    const progress = deferred<void>();
    // `task` asks here, so `queued` is started only once gc holds the second slot (else it could take it first).
    const approve: Approver = async (request) => {
      if (request.agent === 'main' && JSON.stringify(request.assessment.summary).includes('queued')) await agents.until((a) => a.name === 'gc' && a.status === 'running');
      return { approved: true };
    };
    const conversation = conversationIn(makeWorkspace(), { user: { 'peon.subagents.maxConcurrent': 2, 'peon.permission.rules': { task: 'ask' } }, hooks: { approve, onAgent: agents.onAgent, onAgentProgress: (_n, t) => t.includes('go') && progress.resolve() } });
    model.server.script(call('task', { name: 'lead', subagent_type: 'orchestrator', prompt: 'x', background: true }), call('task', { name: 'queued', subagent_type: 'explorer', prompt: 'x', background: true }), say('started'), { stall: true });
    model.server.route('lead', call('task', { name: 'gc', subagent_type: 'developer', prompt: 'x' }));
    model.server.route('gc', call('bash', { command: `echo go; sleep ${marker}` }));
    model.server.route('queued', say('should not run'));
    const turn = conversation.turn('go', client(), () => {});
    await progress.promise;
    await processAppears(`sleep ${marker}`);
    expect(conversation.subagents.list().find((a) => a.name === 'queued')?.status).toBe('pending');
    conversation.stop();
    await turn;
    await agents.until((a) => a.name === 'gc' && a.status === 'interrupted');
    await agents.until((a) => a.name === 'queued' && a.status === 'interrupted');
    await conversation.subagents.idle();
    expect(survivors(`sleep ${marker}`)).toEqual([]);
    expect(requestsOf('queued')).toHaveLength(0);
  });
});
