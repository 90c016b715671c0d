// The panel's subagents (issue 13), over a real conversation and the scripted model
// server: the strip's records, a child's spend in the chat's meter (not its context),
// its transcript opened with its prompt, and after a reload the strip and transcript
// rebuilt from what was saved, a running child reading interrupted.
import path from 'node:path';
import { expect, test } from 'vitest';
import { AgentStore } from '../../../src/core/sessions/agentStore';
import { PanelAgents } from '../../../src/extension/panelAgents';
import { Transcript } from '../../../src/extension/transcript';
import type { HostMessage } from '../../../src/shared/messages';
import { conversationIn } from '../conversation/conversationTestKit';
import { call, say, scriptedModel } from '../conversation/subagentTestKit';
import { makeWorkspace, tempDir } from '../tools/toolTestContext';

const model = scriptedModel();

test("a child in the strip, its spend in the chat's meter, its transcript opened; after a reload the same, interrupted", async () => {
  const posted: HostMessage[] = [];
  const notices: string[] = [];
  const agents = new PanelAgents((m) => posted.push(m), (text) => notices.push(text));
  const main = new Transcript((m) => posted.push(m));
  const dir = path.join(tempDir('peon-agents-'), 's.agents');
  let stalled!: () => void;
  const waiting = new Promise<void>((resolve) => (stalled = resolve));
  const conversation = conversationIn(makeWorkspace({ 'a.txt': 'alpha\n' }), {
    hooks: {
      agentsDir: () => dir,
      onAgent: (info) => {
        agents.update(info);
        if (info.name === 'slow' && info.turns === 1) stalled();
      },
      onAgentEvent: (name, event) => {
        agents.event(name, event);
        if (event.type === 'usage') main.countChild(event);
      },
    },
  });
  model.server.script(call('task', { name: 'scout', subagent_type: 'explorer', prompt: 'Read a.txt.' }), call('task', { name: 'slow', subagent_type: 'developer', prompt: 'Wait.', background: true }), say('ok'));
  model.server.route('scout', call('read', { path: 'a.txt' }), say('alpha.'));
  model.server.route('slow', call('read', { path: 'a.txt' }, 'Reading first.'), { stall: true });
  await conversation.turn('go', model.client(), (e) => main.apply(e));
  await waiting;
  await new Promise((resolve) => setImmediate(resolve)); // the strip posts once per tick
  const strip = posted.filter((m) => m.type === 'agents').at(-1) as Extract<HostMessage, { type: 'agents' }>;
  expect(strip.agents.map((a) => [a.name, a.type, a.status])).toEqual([
    ['scout', 'explorer', 'completed'],
    ['slow', 'developer', 'running'],
  ]);
  // Three main requests and three of the children's (scout 2, slow 1): all in the chat's totals; the context is the main agent's own.
  expect(main.meter).toMatchObject({ contextTokens: 170, outputTokens: 20 * 6 });

  agents.open('scout');
  const view = posted.filter((m) => m.type === 'agentView').at(-1) as Extract<HostMessage, { type: 'agentView' }>;
  expect(view.entries.map((e) => e.kind)).toEqual(['user', 'tool', 'assistant']);
  expect(view.entries[0]).toMatchObject({ kind: 'user', text: 'Read a.txt.' });

  // The window reloads while slow runs: the saved session rebuilds the strip and its transcript.
  const saved = new AgentStore(dir).load();
  conversation.stop();
  await conversation.subagents.idle();
  const after: HostMessage[] = [];
  const restored = new PanelAgents((m) => after.push(m), () => {});
  const reopened = conversationIn(makeWorkspace(), { hooks: { onAgent: (info) => restored.update(info) }, extra: { agents: saved } });
  restored.restore(saved);
  for (const info of reopened.subagents.list()) restored.update(info);
  await new Promise((resolve) => setImmediate(resolve));
  const rebuilt = after.filter((m) => m.type === 'agents').at(-1) as Extract<HostMessage, { type: 'agents' }>;
  expect(rebuilt.agents.map((a) => [a.name, a.status])).toEqual([
    ['scout', 'completed'],
    ['slow', 'interrupted'],
  ]);
  expect(rebuilt.agents[1]!.lastText).toBe('Reading first.');
  restored.open('slow');
  const slowView = after.filter((m) => m.type === 'agentView').at(-1) as Extract<HostMessage, { type: 'agentView' }>;
  expect(slowView.entries.map((e) => e.kind)).toEqual(['user', 'assistant', 'tool']);
  // The background one's end was told in the chat (the old window's Stop ended it).
  expect(notices).toEqual(['slow (developer) was interrupted in the background; its report goes to Peon with the next request.']);
});
