// A conversation's children (DESIGN.md §4 "task, taskstatus"; issue 13): every subagent
// of one session, started by `task`, each a conversation the runtime builds for its
// type. Bounded by user settings — depth, how many run at once, each task's turns,
// tokens and time, and one token budget for all of them — and stopped, each or all, by
// the person. Every change to an agent is saved and shown as it happens; its outcome
// always reaches its parent: a foreground task's as the call's result, a background
// one's in the parent's next model request.
import type { FinalReason, LoopEvent } from '../agent/loop';
import type { HistoryItem, ModelClient, Usage } from '../model/modelClient';
import type { SettingLayers, SettingValues } from '../settings';
import type { AgentLine, AgentStore, LoadedAgent } from '../sessions/agentStore';
import type { TodoStore } from '../todos/todoStore';
import type { Mode, TaskRequest, ToolResult } from '../tools/contract';
import { ToolError } from '../tools/toolError';
import { AGENT_NAME, type AgentInfo } from '../../shared/messages';
import { agentHeadline, agentReport, agentStatusText, bounded } from './agentReport';
import { answered } from './history';
import type { AgentType } from './agentTypes';
import { boundsOf } from './subagentBounds';

/** The conversation that calls `task`: the child reports to it. */
export interface TaskCaller {
  readonly name: string;
  readonly depth: number;
  readonly mode: Mode;
  /** The model of the caller's turn; children use it too. Absent outside a model turn (`peon tool`). */
  readonly client: ModelClient | undefined;
}

/** A child conversation as Subagents drives it (Conversation, seen from here). */
export interface ChildConversation {
  readonly toolNames: readonly string[];
  /** Plan mode or not, now (its own, or inherited from above). */
  readonly mode: Mode;
  /** Its task ended. */
  close(): void;
  configure(settings: SettingValues, layers: SettingLayers, trusted: boolean): void;
  turn(prompt: string, client: ModelClient, onEvent: (event: LoopEvent) => void, options: { signal: AbortSignal; maxSteps: number; settle: true }): Promise<{ reason: FinalReason; text: string }>;
}

export interface ChildSpec {
  readonly name: string;
  readonly type: AgentType;
  readonly parent: string;
  readonly depth: number;
  /** Started in its parent's plan mode: it stays in it. */
  readonly planInherited: boolean;
  /** Whether the agent that started it is in plan mode now (entered after it started): then it is read-only too. */
  readonly parentPlanning: () => boolean;
  readonly history: readonly HistoryItem[];
  /** Its history grows: each item is saved. */
  readonly onHistory: (item: HistoryItem) => void;
  readonly onReset: (history: readonly HistoryItem[]) => void;
  /** It waits for the person (an approval, a question), or no longer. */
  readonly onWaiting: (waiting: 'approval' | 'question' | undefined) => void;
  readonly onProgress: (text: string) => void;
}

/** What the session's owner supplies: the composition root for children, and the face's hooks. */
export interface SubagentRuntime {
  readonly settings: () => SettingValues;
  readonly open: (spec: ChildSpec) => ChildConversation;
  readonly todos: TodoStore;
  /** The main agent: its name, and its mode now. */
  readonly rootName: string;
  readonly rootMode: () => Mode;
  /** Where agents are saved; undefined: not yet known (a panel chat before its first message), so kept in memory. */
  readonly store: () => AgentStore | undefined;
  /** Cancels everything the session runs (the CLI's SIGINT). */
  readonly signal?: AbortSignal;
  readonly onAgent?: (info: AgentInfo) => void;
  readonly onAgentEvent?: (name: string, event: LoopEvent) => void;
  readonly onAgentProgress?: (name: string, text: string) => void;
}

interface Child {
  info: AgentInfo;
  history: HistoryItem[];
  reported: boolean;
  controller?: AbortController;
  /** Set when a bound or the person stops it: why, and the status it ends in. */
  halted?: { why: string; status: 'failed' | 'interrupted' };
  /** Resolves when its current run has ended (undefined while none runs). */
  running?: Promise<void>;
  /** A pending child's start, called when a slot frees. */
  start?: () => void;
  /** Its turn ended and it waits for its own background children: its slot is theirs meanwhile. */
  settling?: boolean;
}

const RESERVED = new Set(['main', 'cli', 'orchestrator', 'planner', 'developer', 'explorer', 'user', 'peon']);
const MAX_AGENTS = 200;
const STOPPED_BY_CHARS = 1000;

const article = (word: string): string => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
/** Tokens of a request as the provider counted them; a count that is not a number counts 0 (never NaN past a bound). */
const tokensOf = (u: Usage): number => [u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens].reduce((sum, n) => sum + (Number.isFinite(n) && n > 0 ? n : 0), 0);
const count = (n: number): string => n.toLocaleString('en-US');

export class Subagents {
  private readonly children = new Map<string, Child>();
  /** Finished children whose parent has not read their outcome yet, by parent name. */
  private readonly inbox = new Map<string, Child[]>();
  private readonly queue: Child[] = [];
  private readonly waiters = new Set<() => void>();
  /** Bumped by stopAll: a task admitted across it is stopped before it starts. */
  private stops = 0;

  constructor(private readonly runtime: SubagentRuntime) {}

  /** Every agent, in the order they were first started. */
  list(): AgentInfo[] {
    return [...this.children.values()].map((c) => ({ ...c.info }));
  }

  /** The conversations running now (the root's new settings reach them). */
  private readonly live = new Map<string, ChildConversation>();

  /** Each running child's conversation. */
  running(): ChildConversation[] {
    return [...this.live.values()];
  }

  /**
   * A saved session's agents: one that was running or waiting reads `interrupted`, and
   * nothing is re-run. An outcome its parent never read (a background report, or a
   * foreground task cut off by the reload) joins the parent's next request.
   */
  restore(saved: readonly LoadedAgent[]): void {
    for (const agent of saved) {
      const open = agent.record.status === 'running' || agent.record.status === 'pending';
      const info: AgentInfo = open ? { ...agent.record, status: 'interrupted', stoppedBy: 'Peon was closed or reloaded while it ran; it was not run again', waiting: undefined } : agent.record;
      const child: Child = { info: stripUndefined(info), history: answered(agent.history), reported: agent.reported };
      this.children.set(info.name, child);
      if (open) this.save(child);
      if (!child.reported && (info.background || open)) this.deliver(child);
    }
  }

  /** `base` (cut to a subagent name's length), or with `-2`, `-3`, … : a name no agent of the session has, in any case. */
  freeName(base: string): string {
    const taken = new Set([...this.children.keys()].map((n) => n.toLowerCase()));
    for (let i = 1; ; i++) {
      const suffix = i === 1 ? '' : `-${i}`;
      const name = `${base.slice(0, 40 - suffix.length).replace(/-+$/, '')}${suffix}`;
      if (!taken.has(name.toLowerCase())) return name;
    }
  }

  /** taskstatus. */
  status(names?: readonly string[]): ToolResult {
    const wanted = names && names.length > 0 ? names : undefined;
    const agents = wanted ? wanted.flatMap((n) => this.children.get(n)?.info ?? []) : this.list();
    const missing = wanted ? wanted.filter((n) => !this.children.has(n)) : [];
    return { output: agentStatusText(agents, missing), headline: `${agents.length} subagent${agents.length === 1 ? '' : 's'}: ${agents.map((a) => `${a.name} ${a.status}`).join(', ') || 'none'}`, data: { agents: agents.map((a) => ({ ...a })), ...(missing.length > 0 ? { missing } : {}) } };
  }

  /** `task`: starts (or resumes) a child. Foreground: its outcome; background: at once. */
  async task(request: TaskRequest, caller: TaskCaller, signal: AbortSignal): Promise<ToolResult> {
    const settings = this.runtime.settings();
    const stops = this.stops;
    await this.checkTodos(request.todoIds);
    // From here to the child's start nothing is awaited: the checks hold when it starts.
    const child = this.admit(request, caller, settings);
    const run = new Promise<void>((resolve) => {
      child.start = () => {
        child.start = undefined;
        resolve(this.execute(child, request, caller, settings, request.background ? undefined : signal));
      };
    });
    child.running = run;
    // Stop came while the task was being admitted: it never runs.
    if (signal.aborted || this.stops !== stops) child.halted = { why: 'stopped by the person', status: 'interrupted' };
    if (child.info.status === 'running' || child.halted) child.start!();
    else this.queue.push(child);
    this.save(child);
    if (request.background) {
      const when = child.info.status === 'pending' ? `It waits for a free slot (${this.runningCount()} of ${boundsOf(settings).maxConcurrent} run at once), then starts.` : 'It is running.';
      return {
        output: `Started ${child.info.name} (${child.info.type}) in the background. ${when} Its report joins your next request when it ends; taskstatus shows how it is doing.`,
        headline: `Started ${child.info.name} (${child.info.type}) in the background`,
        data: { agent: { ...child.info } },
      };
    }
    await run;
    child.reported = true;
    this.save(child);
    if (signal.aborted) throw new ToolError('cancelled', `The run was stopped; ${child.info.name} was stopped with it.`);
    return { output: agentReport(child.info), headline: agentHeadline(child.info), data: { agent: { ...child.info } } };
  }

  /** Stops one agent (the strip's Stop) and the agents it started. */
  stop(name: string): boolean {
    const child = this.children.get(name);
    if (!child) return false;
    this.halt(child, 'stopped by the person', 'interrupted');
    return true;
  }

  /** Stop in the parent: every child, foreground and background, and their processes. */
  stopAll(): void {
    this.stops++;
    for (const child of this.children.values()) this.halt(child, 'stopped by the person', 'interrupted');
  }

  /** The reports of `parent`'s finished background children, once each (they join its next request). */
  drain(parent: string): string[] {
    const children = this.inbox.get(parent) ?? [];
    this.inbox.delete(parent);
    return children.map((child) => {
      child.reported = true;
      this.save(child);
      return agentReport(child.info);
    });
  }

  /** Whether `parent` has children still pending or running. */
  hasOpen(parent: string): boolean {
    return [...this.children.values()].some((c) => c.info.parent === parent && c.running !== undefined);
  }

  /**
   * Resolves when none of `parent`'s children is open any more, or `signal` aborts. A
   * child waiting so gives up its slot meanwhile: its queued children may run.
   */
  async settled(parent: string, signal: AbortSignal): Promise<void> {
    const self = this.children.get(parent);
    if (self) {
      self.settling = true;
      this.next();
    }
    try {
      while (this.hasOpen(parent) && !signal.aborted) await this.changed(signal);
      // Going on takes a slot again, as a start would: never more than maxConcurrent at once.
      while (self && !signal.aborted && this.runningCount() >= boundsOf(this.runtime.settings()).maxConcurrent) await this.changed(signal);
    } finally {
      if (self) self.settling = false;
    }
  }

  /** Resolves when no child runs any more (after Stop, their processes ended too). */
  async idle(): Promise<void> {
    const never = new AbortController().signal;
    while ([...this.children.values()].some((c) => c.running)) await this.changed(never);
  }

  /** Tokens all children have used: the session budget's count. */
  sessionTokens(): number {
    let sum = 0;
    for (const c of this.children.values()) sum += c.info.tokens;
    return sum;
  }

  /** Resolves at the next end of a child's run, or when `signal` aborts. */
  private changed(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Children holding a slot: running, and not only waiting for their own children. */
  private runningCount(): number {
    return [...this.children.values()].filter((c) => c.info.status === 'running' && !c.settling).length;
  }

  private async checkTodos(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      if (!(await this.runtime.todos.get(id))) throw new ToolError('invalid_input', `There is no todo ${JSON.stringify(id)} to link (todoread lists them). Nothing was started.`);
    }
  }

  /** Checks a task against the bounds and the agents there are, then registers it running or pending. Synchronous, so no other task slips between check and registration. */
  private admit(request: TaskRequest, caller: TaskCaller, settings: SettingValues): Child {
    const { name, type } = request;
    if (!caller.client) throw new ToolError('unavailable', 'A subagent needs a model, and this call runs outside a model turn (peon tool). Use peon run, or the panel.');
    if (!AGENT_NAME.test(name) || RESERVED.has(name.toLowerCase())) throw new ToolError('invalid_input', `${JSON.stringify(name)} cannot name a subagent: use a letter, then letters, digits, _ or - (40 at most), and not a reserved word (main, cli, a type's name).`);
    const { maxDepth, sessionTokens: budget, maxConcurrent: max } = boundsOf(settings);
    const depth = caller.depth + 1;
    if (depth > maxDepth) throw new ToolError('permission_denied', `Subagents may nest ${maxDepth} deep (peon.subagents.maxDepth), and ${caller.name} is already at depth ${caller.depth}. Do this work yourself.`);
    const spent = this.sessionTokens();
    if (spent >= budget) throw new ToolError('permission_denied', `This chat's subagents have used ${count(spent)} tokens, its budget (peon.subagents.sessionTokens = ${count(budget)}). No more start; do the rest yourself.`);
    // Names are compared without case: on a case-insensitive disk Scout and scout would share a file.
    const existing = this.children.get(name) ?? [...this.children.values()].find((c) => c.info.name.toLowerCase() === name.toLowerCase());
    if (existing && existing.info.name !== name) throw new ToolError('invalid_input', `There is already a subagent ${existing.info.name}; use that name to resume it, or another name.`);
    if (existing?.running) throw new ToolError('invalid_input', `${name} is still ${existing.info.status}. Wait for it (taskstatus), stop it, or give the new task another name.`);
    if (existing && existing.info.type !== type) throw new ToolError('invalid_input', `${name} is ${article(existing.info.type)}; resume it as ${article(existing.info.type)}, or give the ${type} another name.`);
    if (existing && existing.info.parent !== caller.name) throw new ToolError('invalid_input', `${name} was started by ${existing.info.parent}; only it can resume ${name}. Give this task another name.`);
    if (!existing && this.children.size >= MAX_AGENTS) throw new ToolError('permission_denied', `This chat has ${MAX_AGENTS} subagents already; resume one by name instead of starting another.`);
    const busy = this.runningCount() >= max;
    if (busy && !request.background) {
      const running = [...this.children.values()].filter((c) => c.info.status === 'running' && !c.settling).map((c) => c.info.name);
      throw new ToolError('permission_denied', `${running.length} subagents are running (${running.join(', ')}), the most at once (peon.subagents.maxConcurrent = ${max}). Wait for one (taskstatus), or start this one with background: true to queue it.`);
    }
    const store = this.store();
    const info: AgentInfo = {
      name,
      type,
      parent: caller.name,
      depth,
      status: busy ? 'pending' : 'running',
      background: request.background,
      prompt: bounded(request.prompt, 3900),
      lastText: existing?.info.lastText ?? '',
      turns: existing?.info.turns ?? 0,
      tokens: existing?.info.tokens ?? 0,
      ...(existing?.info.cost !== undefined || !existing ? { cost: existing?.info.cost ?? 0 } : {}),
      startedAt: Date.now(),
      elapsedMs: existing?.info.elapsedMs ?? 0,
      tools: existing?.info.tools ?? [],
      todoIds: [...request.todoIds],
      ...(store ? { transcript: store.file(name) } : {}),
    };
    const child: Child = existing ?? { info, history: [], reported: false };
    child.info = info;
    child.reported = false;
    child.halted = undefined;
    this.children.set(name, child);
    return child;
  }

  /** Runs one task of a child to its end: bounded, saved as it goes; never rejects, and always frees its slot. */
  private async execute(child: Child, request: TaskRequest, caller: TaskCaller, settings: SettingValues, callerSignal: AbortSignal | undefined): Promise<void> {
    try {
      await this.runChild(child, request, caller, settings, callerSignal);
    } catch (error) {
      child.info.status = 'failed';
      child.info.stoppedBy = clip(`Peon failed while running it: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      child.controller = undefined;
      child.running = undefined;
      this.live.get(child.info.name)?.close();
      this.live.delete(child.info.name);
      // What it started in the background ends with it (a report to it could not be read).
      for (const other of this.children.values()) if (other.info.parent === child.info.name) this.halt(other, `${child.info.name}, which started it, ended`, 'interrupted');
      // A background outcome waits for its parent's next request (saved unreported until then).
      if (request.background) this.deliver(child);
      this.save(child);
      this.next();
      for (const wake of [...this.waiters]) wake();
    }
  }

  private async runChild(child: Child, request: TaskRequest, caller: TaskCaller, settings: SettingValues, callerSignal: AbortSignal | undefined): Promise<void> {
    const { maxTurns, maxTokens, maxSeconds, sessionTokens: sessionBudget } = boundsOf(settings);
    const controller = new AbortController();
    child.controller = controller;
    const signal = AbortSignal.any([controller.signal, ...(this.runtime.signal ? [this.runtime.signal] : []), ...(callerSignal ? [callerSignal] : [])]);
    const { info } = child;
    info.status = 'running';
    info.startedAt = Date.now();
    const timer = setTimeout(() => this.halt(child, `its time budget ran out (peon.subagents.maxSeconds = ${maxSeconds})`, 'failed'), maxSeconds * 1000);
    let runTokens = 0;
    let streamed = '';
    let finalReason: FinalReason = 'error';
    let error: string | undefined;
    try {
      if (child.halted) throw new Error('stopped before it started');
      for (const id of info.todoIds) {
        try {
          const todo = await this.runtime.todos.get(id);
          if (todo?.status === 'pending') await this.runtime.todos.write({ id, status: 'in_progress' });
        } catch {
          // the list could not be written now: the todo keeps its status
        }
      }
      if (child.halted) throw new Error('stopped before it started');
      const conversation = this.runtime.open({
        name: info.name,
        type: info.type,
        parent: info.parent,
        depth: info.depth,
        planInherited: caller.mode === 'plan',
        parentPlanning: () => this.modeOf(info.parent) === 'plan',
        history: child.history,
        onHistory: (item) => {
          child.history.push(item);
          this.persist(info.name, { type: 'history', item });
        },
        onReset: (history) => {
          child.history = [...history];
          this.persist(info.name, { type: 'reset', history });
        },
        onWaiting: (waiting) => {
          if (waiting) info.waiting = waiting;
          else delete info.waiting;
          this.save(child);
        },
        onProgress: (text) => this.runtime.onAgentProgress?.(info.name, text),
      });
      this.live.set(info.name, conversation);
      info.tools = [...conversation.toolNames];
      this.save(child);
      const result = await conversation.turn(request.prompt, caller.client!, (event) => {
        this.persist(info.name, { type: 'event', event });
        this.runtime.onAgentEvent?.(info.name, event);
        if (event.type === 'text') streamed += event.delta;
        else if (event.type === 'tool_call' && streamed !== '') {
          info.lastText = bounded(streamed);
          streamed = '';
        } else if (event.type === 'usage') {
          const tokens = tokensOf(event.turn);
          runTokens += tokens;
          info.tokens += tokens;
          if (!event.compaction) info.turns += 1;
          info.cost = event.cost && info.cost !== undefined ? info.cost + event.cost.turn : undefined;
          if (info.cost === undefined) delete info.cost;
          if (streamed !== '') info.lastText = bounded(streamed);
          this.save(child);
          if (runTokens >= maxTokens) this.halt(child, `its token budget ran out (peon.subagents.maxTokens = ${count(maxTokens)}; it used ${count(runTokens)})`, 'failed');
          if (this.sessionTokens() >= sessionBudget) this.overBudget(sessionBudget);
        } else if (event.type === 'final') {
          if (event.text !== '') info.lastText = bounded(event.text);
          if (event.error) error = event.error;
        }
      }, { signal, maxSteps: maxTurns, settle: true });
      finalReason = result.reason;
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    } finally {
      clearTimeout(timer);
    }
    if (streamed !== '' && (info.lastText === '' || finalReason !== 'end_turn')) info.lastText = bounded(streamed);
    info.elapsedMs += Date.now() - info.startedAt;
    delete info.waiting;
    if (child.halted) {
      info.status = child.halted.status;
      info.stoppedBy = child.halted.why;
    } else if (finalReason === 'end_turn') {
      info.status = 'completed';
      delete info.stoppedBy;
    } else if (finalReason === 'max_tokens') {
      // Its answer was cut off: not done, so its todos stay open.
      info.status = 'failed';
      info.stoppedBy = "its last answer hit the model's output limit and was cut off";
    } else if (finalReason === 'step_cap') {
      info.status = 'failed';
      info.stoppedBy = `its turn budget ran out (peon.subagents.maxTurns = ${maxTurns})`;
    } else if (finalReason === 'cancelled') {
      info.status = 'interrupted';
      info.stoppedBy = 'stopped by the person';
    } else {
      info.status = 'failed';
      info.stoppedBy = clip(finalReason === 'repeated_failure' ? 'it kept making the same failing call' : `it failed: ${error || 'the model request failed'}`);
    }
    if (info.status === 'completed') await this.completeTodos(info.todoIds);
  }

  /** An agent's mode now: the main agent's, or a running child's (which follows its own parent's). */
  private modeOf(name: string): Mode {
    return name === this.runtime.rootName ? this.runtime.rootMode() : (this.live.get(name)?.mode ?? 'normal');
  }

  /** The chat's subagents spent their budget: every open one stops, queued ones included. */
  private overBudget(budget: number): void {
    for (const other of this.children.values()) if (other.running) this.halt(other, `the chat's subagent token budget ran out (peon.subagents.sessionTokens = ${count(budget)})`, 'failed');
  }

  private async completeTodos(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      try {
        if (await this.runtime.todos.get(id)) await this.runtime.todos.write({ id, status: 'completed' });
      } catch {
        // The list could not be written: the todo stays open, which is what the person sees.
      }
    }
  }

  /** Starts pending children while slots are free (and the chat's budget lasts). */
  private next(): void {
    const { maxConcurrent: max, sessionTokens: budget } = boundsOf(this.runtime.settings());
    if (this.queue.length > 0 && this.sessionTokens() >= budget) this.overBudget(budget);
    while (this.queue.length > 0 && this.runningCount() < max) {
      const child = this.queue.shift()!;
      child.info.status = 'running';
      child.start?.();
    }
  }

  /** Stops a child and everything it started, with a reason; a pending one never starts. */
  private halt(child: Child, why: string, status: 'failed' | 'interrupted'): void {
    for (const grandchild of this.children.values()) if (grandchild.info.parent === child.info.name) this.halt(grandchild, `${child.info.name}, which started it, was stopped`, status);
    if (!child.running || child.halted) return;
    child.halted = { why, status };
    const queued = this.queue.indexOf(child);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      child.start?.(); // runs to its end at once: halted before it started
    }
    child.controller?.abort(new Error(why));
  }

  /** An outcome its parent has not read goes to the parent's inbox. */
  private deliver(child: Child): void {
    const waiting = this.inbox.get(child.info.parent) ?? [];
    if (!waiting.includes(child)) waiting.push(child);
    this.inbox.set(child.info.parent, waiting);
  }

  private store(): AgentStore | undefined {
    return this.runtime.store();
  }

  private save(child: Child): void {
    const store = this.store();
    if (store && !child.info.transcript) child.info.transcript = store.file(child.info.name);
    this.persist(child.info.name, { type: 'record', record: child.info, reported: child.reported });
    this.runtime.onAgent?.({ ...child.info });
  }

  /** Saving is not the agent's work: a full disk never stops it (what is in memory is still shown). */
  private persist(name: string, line: AgentLine): void {
    try {
      this.store()?.append(name, line);
    } catch {
      // kept in memory
    }
  }
}

const clip = (text: string): string => (text.length > STOPPED_BY_CHARS ? `${text.slice(0, STOPPED_BY_CHARS - 1)}…` : text);

const stripUndefined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
