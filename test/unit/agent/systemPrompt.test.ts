import { expect, test } from 'vitest';
import { buildSystemPrompt } from '../../../src/core/agent/systemPrompt';
import { AGENT_TYPES, registryFor } from '../../../src/core/conversation/agentTypes';
import { builtinRegistry } from '../../../src/core/tools/builtins';
import { Workspace } from '../../../src/core/workspace/workspace';
import { makeWorkspace } from '../tools/toolTestContext';

// Every change to what the model is told shows up here as a diff to review.
test('the system prompt: reviewed text, environment, the project\'s instructions', async () => {
  const root = makeWorkspace({ 'AGENTS.md': '# Conventions\nRun `npm test` before you finish.\n', '.peon/instructions.md': 'Prefer small commits.\n' });
  const tools = builtinRegistry().list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const prompt = buildSystemPrompt({ workspace: new Workspace([{ name: 'project', path: root }]), tools, date: new Date('2026-11-29T12:00:00Z'), platform: 'Linux (test)' });
  await expect(prompt.replaceAll(root, '<root>')).toMatchFileSnapshot('./__snapshots__/systemPrompt.txt');
});

test('without instruction files the prompt has no project section', () => {
  const prompt = buildSystemPrompt({ workspace: new Workspace([{ path: makeWorkspace() }]), tools: [], date: new Date(), platform: 'x' });
  expect(prompt).not.toContain('<project_instructions');
});

// Each subagent type's prompt is a reviewed file too: its snapshot shows every change.
test.each(AGENT_TYPES.filter((t) => t !== 'orchestrator'))('the %s subagent\'s system prompt', async (type) => {
  const root = makeWorkspace();
  const tools = registryFor(type, { trusted: true }).list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const prompt = buildSystemPrompt({ workspace: new Workspace([{ name: 'project', path: root }]), tools, date: new Date('2026-11-29T12:00:00Z'), platform: 'Linux (test)', type, subagent: { name: 'scout', parent: 'main' } });
  expect(prompt).toContain(`You are the subagent "scout" (${type}), started by "main".`);
  await expect(prompt.replaceAll(root, '<root>')).toMatchFileSnapshot(`./__snapshots__/systemPrompt.${type}.txt`);
});
