// The panel's side of a conversation's subagents (issue 13): the strip's records, each
// agent's transcript kept on the host (built from its loop events, as the main one is),
// and the one opened read-only in the panel, which alone receives updates. A background
// agent that ends says so in the chat.
import type { LoopEvent } from '../core/agent/loop';
import type { LoadedAgent } from '../core/sessions/agentStore';
import { MAX_MESSAGE_CHARS, type AgentInfo, type HostMessage } from '../shared/messages';
import type { FileNames } from './changedFiles';
import { Transcript, type ToolTitles } from './transcript';

const ENDED = new Set(['completed', 'failed', 'interrupted']);

export class PanelAgents {
  private readonly infos = new Map<string, AgentInfo>();
  private readonly transcripts = new Map<string, Transcript>();
  private opened: string | undefined;
  private posting = false;

  constructor(
    private readonly post: (message: HostMessage) => void,
    /** A line in the chat (a background agent ended). */
    private readonly notice: (text: string) => void,
    /** What its tool cards read for MCP tools. */
    private readonly titles?: ToolTitles,
    /** How its steps' changed files are named (as the chat's cards name them). */
    private readonly names?: FileNames,
  ) {}

  /** A new chat: no agents. */
  clear(): void {
    this.infos.clear();
    this.transcripts.clear();
    this.opened = undefined;
    this.postAgents();
  }

  /** A resumed chat's agents' transcripts, rebuilt from their saved events (their records come from the runtime, as it restored them). */
  restore(saved: readonly LoadedAgent[]): void {
    this.clear();
    for (const agent of saved) {
      for (const event of agent.events) if (isLoopEvent(event)) this.event(agent.record.name, event);
    }
  }

  /** A record changed (the runtime says so after every change). */
  update(info: AgentInfo): void {
    const before = this.infos.get(info.name);
    this.infos.set(info.name, info);
    if (info.background && ENDED.has(info.status) && before && !ENDED.has(before.status)) {
      const how = info.status === 'completed' ? 'finished' : info.status === 'failed' ? `stopped (${info.stoppedBy ?? 'failed'})` : 'was interrupted';
      this.notice(`${info.name} (${info.type}) ${how} in the background; its report goes to ${info.parent === 'main' ? 'Peon' : info.parent} with the next request.`);
    }
    // Records change in bursts (a turn's usage, waiting, its end): one message per tick.
    if (this.posting) return;
    this.posting = true;
    setImmediate(() => {
      this.posting = false;
      this.postAgents();
    });
  }

  event(name: string, event: LoopEvent): void {
    const transcript = this.transcriptOf(name);
    // Its task prompt (and any report that joined it) opens its part of the transcript.
    if (event.type === 'prompt') transcript.append({ kind: 'user', text: event.text.slice(0, MAX_MESSAGE_CHARS) });
    else transcript.apply(event);
  }

  progress(name: string, text: string): void {
    this.transcriptOf(name).progress(text);
  }

  /** A call's card waits for the person, or no longer: the agent's transcript shows it too. */
  awaiting(callId: string, waiting: boolean): void {
    for (const transcript of this.transcripts.values()) transcript.awaiting(callId, waiting);
  }

  open(name: string): void {
    if (!this.infos.has(name)) return;
    this.opened = name;
    this.post({ type: 'agentView', name, entries: this.transcriptOf(name).entries });
  }

  close(): void {
    this.opened = undefined;
  }

  /** Everything again (the webview reloaded). */
  postAll(): void {
    this.postAgents();
    if (this.opened) this.open(this.opened);
  }

  private postAgents(): void {
    this.post({ type: 'agents', agents: [...this.infos.values()] });
  }

  private transcriptOf(name: string): Transcript {
    let transcript = this.transcripts.get(name);
    if (!transcript) {
      // Only the opened agent's updates go to the webview; its usage counts in the chat's meter elsewhere.
      transcript = new Transcript((message) => {
        if (this.opened === name && (message.type === 'append' || message.type === 'delta' || message.type === 'tool')) this.post({ type: 'agentUpdate', name, update: message });
      }, this.titles, this.names);
      this.transcripts.set(name, transcript);
    }
    return transcript;
  }
}

const isLoopEvent = (value: unknown): value is LoopEvent => typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
