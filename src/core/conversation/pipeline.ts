// The call pipeline of a conversation (DESIGN.md §1, §6): validate -> assess -> plan
// mode -> permission gate -> execute -> result, serially in the order the calls were
// made. Every call gets exactly one outcome.
import { deadline, type Deadline } from '../deadline';
import type { Approver } from '../permissions/approvals';
import { judge, type GateInput, type PermissionDecision } from '../permissions/gate';
import type { SessionGrants } from '../permissions/grants';
import type { CommandJudge } from '../permissions/judgeModel';
import { DEFAULT_PERMISSIONS, type PermissionConfig } from '../permissions/rules';
import type { AnyTool, Assessment, Risk, ToolContext, ToolImage } from '../tools/contract';
import { commitEditedProposal } from '../tools/editedProposal';
import type { ToolRegistry } from '../tools/registry';
import { ToolError, type ToolErrorCode } from '../tools/toolError';
import { delegateRefusal, isPlanWrite, planModeRefusal } from './planMode';
import { ConversationState } from './state';
import type { StepStart } from '../checkpoints/checkpoints';
import { stepChanges, type StepChanges } from '../checkpoints/stepChanges';

export interface PermissionOutcome extends PermissionDecision {
  /** For `ask`: what the person (or --approve) answered. */
  readonly answer?: 'approved' | 'denied';
  /** The person's version of the proposed file content, when they edited it. */
  readonly edited?: string;
  /** A denial's message for the model, when the person wrote one. */
  readonly userMessage?: string;
}

export type ToolCallOutcome =
  /** `diff`: a file change as written (the tool card keeps it after the approval card has gone). `changes`: the step's checkpoint. */
  | { tool: string; ok: true; output: string; headline?: string; images?: readonly ToolImage[]; diff?: string; data: Readonly<Record<string, unknown>>; risk: Risk; permission: PermissionOutcome; changes?: StepChanges }
  | { tool: string; ok: false; error: { code: ToolErrorCode; message: string; details?: Readonly<Record<string, unknown>> }; risk?: Risk; permission?: PermissionOutcome; changes?: StepChanges };

export class CallPipeline {
  private queue: Promise<unknown> = Promise.resolve();
  private ctx: ToolContext;
  private fixed: { context: ToolContext; resolve: NonNullable<GateInput['resolve']>; resolveLink: NonNullable<GateInput['resolveLink']>; roots: readonly string[] } | undefined;

  constructor(
    readonly registry: ToolRegistry,
    context: ToolContext,
    private readonly approve: Approver,
    private permissions: PermissionConfig = DEFAULT_PERMISSIONS,
    /** The conversation's mode and grants; shared by every call it makes. */
    readonly state: ConversationState = new ConversationState(),
    /** peon.permission.judge, when on: a model weighs commands off the read-only list. */
    private readonly judge?: CommandJudge,
  ) {
    this.ctx = { ...context, mode: state };
  }

  get context(): ToolContext {
    return this.ctx;
  }

  /** The person changed their settings while calls run (a long turn, a background subagent): the next call is judged by the new ones. */
  reconfigure(settings: ToolContext['settings'], timeoutMs: number, permissions: PermissionConfig, skills?: ToolContext['skills']): void {
    this.ctx = { ...this.ctx, settings, timeoutMs, ...(skills ? { skills } : {}) };
    this.permissions = permissions;
  }

  /** What the person allowed for this conversation. */
  get grants(): SessionGrants {
    return this.state.grants;
  }

  /** Runs one call after every call made before it has finished. */
  call(name: string, rawInput: unknown, callId?: string): Promise<ToolCallOutcome> {
    const next = this.queue.then(() => this.run(name, rawInput, callId));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async run(name: string, rawInput: unknown, callId: string | undefined): Promise<ToolCallOutcome> {
    const tool = this.registry.get(name);
    if (!tool) {
      const known = this.registry.list().map((t) => t.name).join(', ');
      return failure(name, new ToolError('unknown_tool', `There is no tool named ${JSON.stringify(name)}. Available tools: ${known}.`));
    }
    let risk: Risk | undefined;
    let permission: PermissionOutcome | undefined;
    // Time on the approval card does not count: the call's deadline starts when it runs.
    let signal = this.context.signal;
    let limit: Deadline | undefined;
    let step: StepStart | undefined;
    try {
      const input = tool.parse(rawInput);
      throwIfAborted(signal);
      const planning = this.state.current === 'plan';
      // Plan mode refuses before anyone is asked (a refused call never shows a card), and a delegate before it is even looked up.
      const canExit = this.registry.get('exitplanmode') !== undefined;
      if (planning && tool.risk === 'delegate') throw new ToolError('permission_denied', delegateRefusal(tool.name, canExit));
      const assessment = await tool.assess(input, this.context);
      risk = assessment.risk;
      const refusal = planning ? await planModeRefusal(tool, this.gateInput(tool, assessment), this.context.workspace, canExit) : undefined;
      if (refusal) throw new ToolError('permission_denied', refusal);
      permission = await this.gate(tool, assessment, signal, callId);
      // Stop (or a subagent's bound) withdrew the card: nobody denied the call, it was cancelled.
      if (permission.answer === 'denied') throwIfAborted(signal);
      if (permission.decision === 'deny' || permission.answer === 'denied') {
        // Leaving the workspace has its own code (DESIGN.md §3); anything else is permission_denied.
        const outside = assessment.paths.some((p) => !p.inside);
        throw new ToolError(outside ? 'outside_workspace' : 'permission_denied', deniedMessage(name, permission, assessment));
      }
      throwIfAborted(signal);
      // Plan mode began while the card waited (the main agent entered it, a subagent's parent did): judged again.
      const refusedNow = !planning && this.planningNow() ? await planModeRefusal(tool, this.gateInput(tool, assessment), this.context.workspace, canExit) : undefined;
      if (refusedNow) throw new ToolError('permission_denied', refusedNow);
      this.recheckPaths(assessment);
      // A call that waits for the person (a question) has no deadline: only Stop ends it.
      limit = tool.untimed ? undefined : deadline(this.context.signal, this.context.timeoutMs);
      signal = limit?.signal ?? this.context.signal;
      const edited = permission.edited !== undefined && assessment.proposal && permission.edited !== assessment.proposal.content ? permission.edited : undefined;
      // A step that may change files is checkpointed around its execution, whatever its outcome (DESIGN.md §10).
      step = await this.stepStart(tool, assessment);
      const result = edited !== undefined && assessment.proposal ? await commitEditedProposal(assessment.proposal, edited, { ...this.context, signal }) : await tool.execute(input, { ...this.context, signal }, assessment);
      const changes = await this.stepEnd(step);
      // What was approved is what was written: the card's diff, unless the person's own version replaced it.
      const diff = result.diff ?? (assessment.summary.kind === 'file-change' ? assessment.summary.diff : undefined);
      return { tool: name, ok: true, output: result.output, ...(result.headline ? { headline: result.headline } : {}), ...(result.images?.length ? { images: result.images } : {}), ...(diff === undefined ? {} : { diff }), data: result.data ?? {}, risk, permission, ...(changes ? { changes } : {}) };
    } catch (error) {
      const changes = await this.stepEnd(step);
      return { ...failure(name, asToolError(error, signal), risk, permission), ...(changes ? { changes } : {}) };
    } finally {
      limit?.clear();
    }
  }

  /** The checkpoint of a call about to run: its own paths (a file tool), the whole workspace (a command, an agent, an MCP tool), or none. */
  private async stepStart(tool: AnyTool, assessment: Assessment): Promise<StepStart | undefined> {
    const checkpoints = this.context.checkpoints;
    const scope = assessment.changes ?? (tool.risk === 'process' || tool.risk === 'delegate' ? 'folders' : assessment.writes ? 'files' : 'none');
    if (!checkpoints || scope === 'none') return undefined;
    if (scope === 'folders') return checkpoints.beforeFolders(tool.name);
    return checkpoints.beforeFiles(tool.name, assessment.paths.filter((p) => p.inside).map((p) => p.canonical));
  }

  /** What the step changed, recorded; once per step, also when the call failed or was cancelled midway. */
  private async stepEnd(start: StepStart | undefined): Promise<StepChanges | undefined> {
    const checkpoints = this.context.checkpoints;
    if (!checkpoints || !start || ended.has(start)) return undefined;
    ended.add(start);
    try {
      return stepChanges(await checkpoints.after(start));
    } catch {
      return undefined; // a checkpoint never costs the call its result
    }
  }

  /** Read afresh: plan mode may have begun while a card waited. */
  private planningNow(): boolean {
    return this.state.current === 'plan';
  }

  /**
   * What was approved is what runs: every path is resolved again right before execution,
   * and a path that now leads elsewhere (a symlink swapped while the card waited) stops
   * the call.
   */
  private recheckPaths(assessment: Assessment): void {
    for (const before of assessment.paths) {
      const now = this.context.workspace.recheck(before);
      const same =
        now.canonical === before.canonical &&
        now.inside === before.inside &&
        now.protectedReason === before.protectedReason &&
        now.secretReasons.length === before.secretReasons.length;
      if (!same) {
        throw new ToolError('stale', `${before.display} now leads to ${now.display}, not where it led when the call was checked. Nothing was done; check the path and retry.`);
      }
    }
  }

  /** What the gate (and plan mode's command check) judge a call by. */
  private gateInput(tool: AnyTool, assessment: Assessment): GateInput {
    // Built once per context: the workspace's resolvers are the same for every call. Listed out, not spread,
    // so every input has one shape (a spread of optional fields made this the pipeline's slowest line).
    if (this.fixed?.context !== this.ctx) {
      const { workspace } = this.ctx;
      this.fixed = {
        context: this.ctx,
        resolve: (path) => workspace.resolve(path),
        resolveLink: (path) => workspace.resolveLink(path),
        roots: workspace.folders.map((f) => f.root),
      };
    }
    const { resolve, resolveLink, roots } = this.fixed;
    return { tool: tool.name, assessment, config: this.permissions, grants: this.grants, resolve, resolveLink, roots, env: this.ctx.env, judge: this.judge };
  }

  private async gate(tool: AnyTool, assessment: Assessment, signal: AbortSignal, callId: string | undefined): Promise<PermissionOutcome> {
    const { workspace } = this.context;
    let permission = await judge(this.gateInput(tool, assessment));
    // A call that does another tool's work (a forked skill starts a task) answers to that tool's rules as well: the stricter holds.
    if (assessment.judgedAs && permission.decision !== 'deny') {
      const also = await judge({ ...this.gateInput(tool, assessment), tool: assessment.judgedAs });
      if (also.decision === 'deny' || (also.decision === 'ask' && permission.decision === 'allow')) permission = { ...also, grantable: [], sessionGrants: [], sessionText: [] };
    }
    // In plan mode, writing the plan under .peon/plans/ was approved with plan mode itself (an explicit ask rule still asks).
    if (permission.decision === 'ask' && permission.mode === 'semi-ask' && this.state.current === 'plan' && isPlanWrite(assessment, workspace)) {
      permission = { ...permission, decision: 'allow', source: 'plan mode: the plan is written under .peon/plans/', reasons: [] };
    }
    const unsaved = assessment.writes ? assessment.paths.filter((p) => this.context.unsaved?.(p.canonical)) : [];
    if (unsaved.length > 0 && permission.decision !== 'deny') {
      const reasons = unsaved.map((p) => `${p.display} is open in the editor with unsaved changes: approving writes the file on disk, and your unsaved text stays in the editor`);
      permission = { ...permission, decision: 'ask', reasons: [...reasons, ...permission.reasons], grantable: [], sessionGrants: [], sessionText: [] };
    }
    if (permission.decision !== 'ask') return permission;
    const reply = await this.approve({ tool: tool.name, agent: this.context.agent, ...(callId ? { callId } : {}), assessment, permission }, signal);
    if (!reply.approved) return answered(permission, 'denied', reply.message ? { userMessage: reply.message } : {});
    if (reply.scope === 'session' && assessment.offers) this.grants.addPlan(assessment.offers.files, assessment.offers.commands);
    // "Always" is a rule in the person's settings, not a grant of this session: listed apart, it is not also shown as temporary.
    else if (reply.scope === 'session' && permission.sessionGrants.length > 0) this.grants.add(tool.name, permission.sessionGrants, permission.sessionText);
    return answered(permission, 'approved', reply.edited !== undefined ? { edited: reply.edited } : {});
  }
}

/** The decision with the person's answer. Listed out: a spread followed by a new key costs Node 20 ~0.6 µs, on every call that asks. */
function answered(p: PermissionDecision, answer: 'approved' | 'denied', extra: Pick<PermissionOutcome, 'edited' | 'userMessage'>): PermissionOutcome {
  return { decision: p.decision, mode: p.mode, source: p.source, reasons: p.reasons, grantable: p.grantable, sessionGrants: p.sessionGrants, answer, ...extra };
}

/** Steps whose end was recorded: a failure after stepEnd ran (in the success path) does not record it twice. */
const ended = new WeakSet<StepStart>();

function deniedMessage(tool: string, permission: PermissionOutcome, assessment: Assessment): string {
  const why = permission.reasons.length > 0 ? ` (${permission.reasons.join('; ')})` : '';
  const userMessage = permission.userMessage;
  if (permission.decision === 'deny') return `The ${tool} call is denied by ${permission.source}${why}. Do not retry it.`;
  if (assessment.summary.kind === 'plan') return `The user kept you in plan mode: the plan is not approved yet.${userMessage ? ` They said: ${userMessage}` : ''} Revise the plan (still read-only), then call ${tool} again.`;
  return `The user denied this ${tool} call${why}.${userMessage ? ` They said: ${userMessage}` : ''} Do not retry it unchanged.`;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw asToolError(signal.reason, signal);
}

function asToolError(error: unknown, signal: AbortSignal): ToolError {
  if (error instanceof ToolError) return error;
  if (signal.aborted) {
    const timedOut = signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError';
    return timedOut ? new ToolError('timeout', 'The tool call ran out of time.') : new ToolError('cancelled', 'The tool call was cancelled.');
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError('io_error', `Unexpected error: ${message}`);
}

function failure(tool: string, error: ToolError, risk?: Risk, permission?: PermissionOutcome): ToolCallOutcome {
  return {
    tool,
    ok: false,
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    ...(risk ? { risk } : {}),
    ...(permission ? { permission } : {}),
  };
}
