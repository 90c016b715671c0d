// The system prompt: the reviewed text of the agent's type (systemPrompt.md for the
// orchestrator, prompts/<type>.md for the others), the project's own instructions
// (AGENTS.md, .peon/instructions.md) and the environment (DESIGN.md §6).
import os from 'node:os';
import path from 'node:path';
import { visibleText } from '../../shared/hiddenText';
import { inertClosing } from '../envelope';
import type { ToolSpec } from '../model/modelClient';
import { readProjectFile } from '../workspace/safeRead';
import type { Workspace } from '../workspace/workspace';
import type { AgentType } from '../conversation/agentTypes';
import developer from './prompts/developer.md';
import explorer from './prompts/explorer.md';
import planner from './prompts/planner.md';
import orchestrator from './systemPrompt.md';

const BASE: Readonly<Record<AgentType, string>> = { orchestrator, planner, developer, explorer };

const INSTRUCTION_FILES = ['AGENTS.md', path.join('.peon', 'instructions.md')];
const MAX_INSTRUCTION_CHARS = 20_000;

export interface PromptEnvironment {
  readonly workspace: Workspace;
  readonly tools: readonly ToolSpec[];
  readonly date: Date;
  readonly platform?: string;
  /** Default: the orchestrator (the main agent). */
  readonly type?: AgentType;
  /** A subagent: its name and who started it (its final message is their report). */
  readonly subagent?: { readonly name: string; readonly parent: string };
  /** The skill list (skillList.ts), for an agent that can load skills. */
  readonly skills?: string;
}

/**
 * The project's instruction files, each read only when it really is a plain file in the
 * workspace (a link to ~/.aws/credentials or /proc/self/environ is not), with what it
 * hides made visible and nothing in it able to close its envelope.
 */
function instructions(root: string): string[] {
  const sections: string[] = [];
  for (const name of INSTRUCTION_FILES) {
    // Four bytes a character at most: enough for MAX_INSTRUCTION_CHARS and one more, to know it was cut.
    const text = readProjectFile(root, name, (MAX_INSTRUCTION_CHARS + 1) * 4);
    if (text === undefined) continue;
    const cut = text.length > MAX_INSTRUCTION_CHARS ? `${text.slice(0, MAX_INSTRUCTION_CHARS)}\n[… cut at ${MAX_INSTRUCTION_CHARS} characters]` : text;
    sections.push(`<project_instructions file="${name.split(path.sep).join('/')}">\n${inertClosing(visibleText(cut.trim()), 'project_instructions')}\n</project_instructions>`);
  }
  return sections;
}

export function buildSystemPrompt(env: PromptEnvironment): string {
  const folders = env.workspace.folders.map((f) => `- ${f.name}: ${f.root}`).join('\n');
  const environment = [
    '<environment>',
    `Operating system: ${env.platform ?? `${os.type()} ${os.release()}`}`,
    `Date: ${env.date.toISOString().slice(0, 10)}`,
    `Workspace folders (the first is the root; paths are relative to it):\n${folders}`,
    `Tools: ${env.tools.map((t) => t.name).join(', ')}`,
    ...(env.subagent ? [`You are the subagent "${env.subagent.name}" (${env.type ?? 'orchestrator'}), started by "${env.subagent.parent}".`] : []),
    '</environment>',
  ].join('\n');
  return [BASE[env.type ?? 'orchestrator'].trim(), environment, ...(env.skills ? [env.skills] : []), ...instructions(env.workspace.root.root)].join('\n\n');
}
