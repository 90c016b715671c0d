// The conversation as the panel shows it, owned by the host: entries, and the deltas
// that turn a running agent's events into webview messages.
import { cutText as cut } from '../shared/format';
import type { LoopEvent } from '../core/agent/loop';
import { addUsage, NO_USAGE, type Usage } from '../core/model/modelClient';
import { finishedCard, plannedCard } from '../core/tools/toolSentence';
import { visibleText } from '../shared/hiddenText';
import { relativeNames, stepChangesView, type FileNames } from './changedFiles';
import { applyChangeFiles, applyToolMessage, parseHostMessage, TOOL_CARD_CHARS, TOOL_DIFF_CHARS, TOOL_HEADLINE_CHARS, type ChangedFile, type HostMessage, type Meter, type ToolStatus, type TranscriptEntry } from '../shared/messages';

type ToolCard = Extract<TranscriptEntry, { kind: 'tool' }>;

/** What a tool card reads instead of the tool's name and raw arguments (an MCP tool's "server › tool" and one-line input); undefined: as called. */
export type ToolTitles = (name: string, args: string) => { readonly title: string; readonly args: string } | undefined;

const boundedHeadline = (text: string): string => (text.length > TOOL_HEADLINE_CHARS ? `${text.slice(0, TOOL_HEADLINE_CHARS - 1)}…` : text);
const bounded = (text: string): string => (text.length > TOOL_CARD_CHARS ? `${text.slice(0, TOOL_CARD_CHARS - 40)}\n… [${text.length - TOOL_CARD_CHARS + 40} more characters]` : text);
/** A diff cut at a line, the cut said in a note row. */
const boundedDiff = (diff: string): string => {
  if (diff.length <= TOOL_DIFF_CHARS) return diff;
  const kept = diff.slice(0, diff.lastIndexOf('\n', TOOL_DIFF_CHARS - 60));
  return `${kept}\n\\ (the rest of the diff, ${diff.length - kept.length} characters, is not shown)`;
};

/** A call's arguments as an object (the card's sentence reads them); {} when they are not one. */
function argsOf(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A card's sentence and facts, bounded to what the protocol carries. */
function cardFacts(card: { headline?: string | undefined; detail?: string | undefined; path?: string | undefined; diff?: string | undefined }): Partial<ToolCard> {
  return {
    ...(card.headline ? { headline: boundedHeadline(card.headline) } : {}),
    ...(card.detail ? { detail: cut(card.detail, 2000) } : {}),
    ...(card.path && card.path.length <= 4096 ? { path: card.path } : {}),
    ...(card.diff ? { diff: boundedDiff(card.diff) } : {}),
  };
}

/** A loaded skill's chip, bounded to what the protocol carries. */
export function skillEntry(id: string, use: LoopEvent & { type: 'skill' }): Extract<TranscriptEntry, { kind: 'skill' }> {
  const lines = use.hidden.map((line) => cut(line, 2000));
  const hidden = lines.length > 20 ? [...lines.slice(0, 19), `… and ${lines.length - 19} more`] : lines;
  return {
    kind: 'skill',
    id,
    name: cut(use.name, 64),
    source: cut(visibleText(use.source), 4096),
    hidden,
    ...(use.sha256 && /^[0-9a-f]{64}$/.test(use.sha256) ? { sha256: use.sha256 } : {}),
    ...(use.forked ? { forked: cut(use.forked, 40) } : {}),
    ...(use.error ? { error: cut(visibleText(use.error), 2000) } : {}),
  };
}

export class Transcript {
  entries: TranscriptEntry[] = [];
  private nextId = 1;
  private streaming: Extract<TranscriptEntry, { kind: 'assistant' }> | undefined;
  private readonly cards = new Map<string, ToolCard>();
  /** When each running call started (restarted when its approval card is answered: time on the card is the person's). */
  private readonly started = new Map<string, number>();

  /** The model's context window, for the meter (set when a turn starts). */
  contextWindow = 128_000;
  /** The meter as last posted: restored with the chat, and sent again when the view reloads. */
  meter: Meter | undefined;
  private contextTokens = 0;
  private chatTokens: Usage = NO_USAGE;
  /** USD so far; undefined once any request's price was unknown (a partial sum would mislead). */
  private chatCost: number | undefined = 0;

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly titles?: ToolTitles,
    /** How a step's changed files are named on its card. */
    private readonly names: FileNames = relativeNames,
  ) {}

  clear(): void {
    this.entries = [];
    this.meter = undefined;
    this.contextTokens = 0;
    this.chatTokens = NO_USAGE;
    this.chatCost = 0;
    this.streaming = undefined;
    this.cards.clear();
    this.started.clear();
  }

  /** Rebuilds the entries from a session's recorded panel messages (append, delta, tool). */
  restore(messages: readonly unknown[]): void {
    this.clear();
    const byId = new Map<string, TranscriptEntry>();
    for (const raw of messages) {
      const parsed = parseHostMessage(raw);
      if (!parsed.ok) continue;
      const m = parsed.message;
      if (m.type === 'usage') this.resumeUsage(m);
      else if (m.type === 'remove') this.entries = this.entries.filter((e) => e.id !== m.id);
      else if (m.type === 'append') {
        this.entries.push(m.entry);
        byId.set(m.entry.id, m.entry);
      } else if (m.type === 'delta' || m.type === 'tool') {
        const entry = byId.get(m.id);
        if (m.type === 'delta' && entry?.kind === 'assistant') entry.text += m.text;
        if (m.type === 'tool' && entry?.kind === 'tool') applyToolMessage(entry, m);
      } else if (m.type === 'changeFiles') applyChangeFiles(byId.get(m.id), m);
    }
    const last = this.entries.reduce((max, e) => Math.max(max, Number(e.id.slice(1)) || 0), 0);
    this.nextId = last + 1;
  }

  private resumeUsage({ type: _type, ...m }: Extract<HostMessage, { type: 'usage' }>): void {
    this.meter = m;
    this.contextTokens = m.contextTokens;
    // The meter folds cache writes into input; the chat's totals go on from there.
    this.chatTokens = { inputTokens: m.inputTokens, outputTokens: m.outputTokens, cacheReadTokens: m.cacheReadTokens, cacheWriteTokens: 0 };
    this.chatCost = m.chatCost;
  }

  /** Appends a message of the person's, a notice, or the files a turn changed; returns its id. */
  append(entry: Omit<Extract<TranscriptEntry, { kind: 'user' }>, 'id'> | Omit<Extract<TranscriptEntry, { kind: 'notice' }>, 'id'> | Omit<Extract<TranscriptEntry, { kind: 'changes' }>, 'id'>): string {
    const id = `e${this.nextId++}`;
    this.add({ ...entry, id } as TranscriptEntry);
    return id;
  }

  /** A card's or a turn's files as they are now (reverted, kept). */
  changeFiles(id: string, files: ChangedFile[]): void {
    const message = { type: 'changeFiles' as const, id, files };
    applyChangeFiles(this.entries.find((e) => e.id === id), message);
    this.post(message);
  }

  /** Takes an entry away (a notice that no longer holds). */
  remove(id: string): void {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.id !== id);
    if (this.entries.length !== before) this.post({ type: 'remove', id });
  }

  private progressTimer: NodeJS.Timeout | undefined;

  /**
   * Live output for the card of the call that is running: its tail is kept, and the
   * panel is updated at most every 100 ms however fast the command writes.
   */
  progress(text: string): void {
    const card = [...this.cards.values()].reverse().find((c) => c.status === 'running');
    if (!card) return;
    const all = card.output + text;
    card.output = all.length > TOOL_CARD_CHARS ? `…${all.slice(all.length - TOOL_CARD_CHARS + 1)}` : all;
    this.progressTimer ??= setTimeout(() => {
      this.progressTimer = undefined;
      if (card.status === 'running') this.post({ type: 'tool', id: card.id, status: 'running', output: card.output });
    }, 100);
  }

  /** A call's approval card is up (`waiting`), or was answered and the call goes on (`running`). */
  awaiting(callId: string, waiting: boolean): void {
    const card = this.cards.get(callId);
    if (!card || (card.status !== 'running' && card.status !== 'waiting')) return;
    card.status = waiting ? 'waiting' : 'running';
    this.started.set(callId, Date.now());
    this.post({ type: 'tool', id: card.id, status: card.status, output: card.output });
  }

  /** One loop event, as entries and deltas. */
  apply(event: LoopEvent): void {
    switch (event.type) {
      case 'text':
        if (!this.streaming) {
          this.streaming = { kind: 'assistant', id: `e${this.nextId++}`, text: '' };
          this.add(this.streaming);
        }
        this.streaming.text += event.delta;
        this.post({ type: 'delta', id: this.streaming.id, text: event.delta });
        break;
      case 'tool_call': {
        this.streaming = undefined;
        const { name, arguments: raw } = event.call;
        const titled = this.titles?.(name, raw);
        // An MCP tool's card reads "server › tool" and its input; a built-in one, a sentence.
        const planned = titled ? undefined : plannedCard(name, argsOf(raw));
        const card: ToolCard = {
          kind: 'tool',
          id: `e${this.nextId++}`,
          name,
          args: bounded(titled?.args ?? raw),
          ...(titled ? { title: boundedHeadline(titled.title) } : {}),
          status: 'running',
          output: '',
          ...cardFacts(planned ?? {}),
        };
        this.cards.set(event.call.id, card);
        this.started.set(event.call.id, Date.now());
        this.add(card);
        break;
      }
      case 'tool_result': {
        const card = this.cards.get(event.call.id);
        if (!card) break;
        const { outcome } = event;
        const finished = finishedCard(card.name, argsOf(event.call.arguments), outcome);
        const status: ToolStatus = finished.status;
        // Denied and cancelled calls say so in their sentence; what the model was told stays out of the person's way.
        const output = outcome.ok ? bounded(outcome.output) : status === 'error' ? bounded(`${outcome.error.code}: ${outcome.error.message}`) : '';
        const durationMs = finished.durationMs ?? Date.now() - (this.started.get(event.call.id) ?? Date.now());
        this.started.delete(event.call.id);
        const changes = 'changes' in outcome ? outcome.changes : undefined;
        const facts = { ...cardFacts(finished), durationMs, ...(changes ? { changes: stepChangesView(changes, this.names) } : {}) };
        applyToolMessage(card, { type: 'tool', id: card.id, status, output, ...facts });
        this.post({ type: 'tool', id: card.id, status, output, ...facts });
        break;
      }
      case 'final':
        this.streaming = undefined;
        if (event.reason !== 'end_turn') {
          const why = { cancelled: 'Stopped.', step_cap: 'Stopped at the step cap.', repeated_failure: 'Stopped: the same call kept failing.', max_tokens: 'The answer hit the token limit.', error: 'The model request failed.' }[event.reason];
          // A failed request offers a way on: a refused key its setting, an unreachable server another model; both a retry.
          const actions = event.reason !== 'error' ? undefined : event.failure === 'auth' ? (['setApiKey', 'retry'] as const) : event.failure === 'unreachable' ? (['retry', 'selectModel'] as const) : (['retry'] as const);
          this.append({ kind: 'notice', level: event.reason === 'cancelled' ? 'info' : 'warning', text: `${why}${event.error ? ` ${event.error}` : ''}`, ...(actions ? { actions: [...actions] } : {}) });
        }
        break;
      case 'compacted':
        this.streaming = undefined;
        this.add({ kind: 'summary', id: `e${this.nextId++}`, text: `${event.summary}${event.memoryId ? `\n\n(saved to memory as ${event.memoryId})` : ''}` });
        break;
      case 'usage': {
        const t = event.turn;
        if (!event.compaction) this.contextTokens = t.inputTokens + t.cacheReadTokens + t.cacheWriteTokens + t.outputTokens;
        this.count(event, event.cost?.total);
        break;
      }
      case 'skill':
        // Under the person's message: the skill it loaded, where from, its hash, what it hides, or why it failed.
        this.streaming = undefined;
        this.add(skillEntry(`e${this.nextId++}`, event));
        break;
      case 'prompt':
        // The main chat shows the person's message when it is sent; a subagent's prompt is added by its view (panelAgents).
        break;
      case 'retry':
        // Not part of the record: the panel counts down to the next attempt, and the next event ends it.
        this.post({ type: 'retry', attempt: event.attempt, delayMs: event.delayMs, error: cut(visibleText(event.error), 2000) });
        break;
    }
  }

  /** The text of a message the person or the model wrote, by its entry id ("Remember this"); undefined for anything else. */
  messageText(id: string): string | undefined {
    const entry = this.entries.find((e) => e.id === id);
    return entry && (entry.kind === 'user' || entry.kind === 'assistant') ? entry.text : undefined;
  }

  /** A subagent's request: part of the chat's spend, not of this context window. */
  countChild(event: LoopEvent & { type: 'usage' }): void {
    this.count(event, this.meter?.promptCost);
  }

  /** The chat's totals: every request (summaries' and subagents' too); cache reads counted once. */
  private count(event: LoopEvent & { type: 'usage' }, promptCost: number | undefined): void {
    this.chatTokens = addUsage(this.chatTokens, event.turn);
    this.chatCost = event.cost && this.chatCost !== undefined ? this.chatCost + event.cost.turn : undefined;
    this.meter = {
      contextTokens: this.contextTokens,
      contextWindow: this.contextWindow,
      inputTokens: this.chatTokens.inputTokens + this.chatTokens.cacheWriteTokens,
      outputTokens: this.chatTokens.outputTokens,
      cacheReadTokens: this.chatTokens.cacheReadTokens,
      ...(promptCost !== undefined ? { promptCost } : {}),
      ...(this.chatCost !== undefined ? { chatCost: this.chatCost } : {}),
    };
    this.post({ type: 'usage', ...this.meter });
  }

  private add(entry: TranscriptEntry): void {
    this.entries.push(entry);
    this.post({ type: 'append', entry });
  }
}
