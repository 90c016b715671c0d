// Plan mode (DESIGN.md §4): the runtime, not the prompt, keeps the agent read-only. File
// changes only under .peon/plans/; commands only when every segment is read-only;
// delegated agents not at all. A refusal is an error for the model, never a card.
import path from 'node:path';
import type { GateInput } from '../permissions/gate';
import { whyNotPlanSafe } from '../permissions/readOnlyCommand';
import type { AnyTool, Assessment } from '../tools/contract';
import type { ResolvedPath, Workspace } from '../workspace/workspace';

export const PLANS_DIR = '.peon/plans';

/** The standing reminder that goes with every model request while plan mode is on. */
export const PLAN_REMINDER = `<plan_mode>
Plan mode is on. Research and plan only: read, search and run read-only commands. You may write only under ${PLANS_DIR}/ (write the plan there as Markdown). Every other change is refused by Peon itself, not by a prompt: file writes elsewhere, commands that are not read-only (redirections, sed -i, git commit, installs, builds), and delegated agents. When the plan is ready, call exitplanmode with the plan (and, optionally, allow: {files: [globs], commands: [patterns]} for what carrying it out will touch); the user approves it, asks for changes, or keeps you planning.
</plan_mode>`;

/** The reminder of an agent that stays in plan mode (a planner, an explorer, a subagent started in it). */
export const STAYING_PLAN_REMINDER = `<plan_mode>
Plan mode is on for you, and stays on: read, search and run read-only commands only. Any file change outside ${PLANS_DIR}/ and any command that is not read-only is refused by Peon itself. Put what you found, or the plan, in your final answer (a plan may also be written under ${PLANS_DIR}/ if you can write files).
</plan_mode>`;

/** `canExit`: the agent has exitplanmode; one that stays in plan mode (an explorer, a planner) is told to report instead. */
const refused = (what: string, canExit = true): string =>
  canExit
    ? `Plan mode is on: ${what}. Nothing was done. Plan mode is read-only until the user approves a plan: write the plan under ${PLANS_DIR}/ and call exitplanmode.`
    : `Plan mode is on: ${what}. Nothing was done. You stay read-only: put what you found, or the plan, in your answer.`;

export const delegateRefusal = (tool: string, canExit = true): string => refused(`${tool} starts another agent, which could change anything`, canExit);

/** Why plan mode refuses this call, or undefined when it may go on to the gate. */
export async function planModeRefusal(tool: AnyTool, gate: GateInput, workspace: Workspace, canExit = true): Promise<string | undefined> {
  const { assessment } = gate;
  if (assessment.risk === 'delegate' || tool.risk === 'delegate') return delegateRefusal(tool.name, canExit);
  // Whatever the server says of its tool (readOnlyHint is a claim): another program could change anything.
  if (assessment.summary.kind === 'mcp') return refused(`${tool.name} is a tool of the MCP server "${assessment.summary.server}", which could change anything`, canExit);
  if (assessment.summary.kind === 'command') {
    const why = await whyNotPlanSafe(assessment.summary.command, gate);
    return why === undefined ? undefined : refused(`only read-only commands run, and ${why}`, canExit);
  }
  if (!assessment.writes) return undefined;
  const outside = assessment.paths.find((p) => !underPlans(p, workspace));
  if (outside || assessment.paths.length === 0) return refused(`${tool.name} may change files only under ${PLANS_DIR}/, not ${outside?.display ?? 'this'}`, canExit);
  return undefined;
}

/** Whether a path is under the workspace's .peon/plans/, by its real path. */
function underPlans(p: ResolvedPath, workspace: Workspace): boolean {
  const rel = path.relative(path.join(workspace.root.root, ...PLANS_DIR.split('/')), p.canonical);
  return p.inside && rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * Writing the plan is what plan mode is for: a change only to ordinary files under
 * .peon/plans/ (not secret-like, not protected, one link) needs no second approval.
 */
export function isPlanWrite(assessment: Assessment, workspace: Workspace): boolean {
  return assessment.writes && assessment.paths.length > 0 && assessment.paths.every((p) => underPlans(p, workspace) && !p.protectedReason && p.secretReasons.length === 0 && p.hardLinks <= 1);
}
