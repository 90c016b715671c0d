// What the person does with messages besides sending one (walkthrough #15): text typed
// during a turn is queued and joins the history at the turn's next step (the loop's
// `incoming`, like a subagent's report), shown as queued until then and removable; Edit
// on a message of theirs cuts the conversation before it and sends the new text; Retry on
// Peon's last answer runs its turn again. Each message of the person's is marked with
// where it joined the model's history, so a cut there is exact; marks are saved with the
// session, and a compaction (which rewrites the history) clears them.
import type { LoopEvent } from '../core/agent/loop';
import type { Conversation } from '../core/conversation/index';
import type { SessionRecord } from '../core/sessions/sessionStore';
import type { Handlers, HostMessage, TranscriptEntry, WebviewMessage } from '../shared/messages';
import type { Transcript } from './transcript';

/** The point a conversation is cut back to: the message edited (or whose answer is retried) and where it stood in the history. */
export interface RewindPoint {
  readonly entryId: string;
  readonly text: string;
  /** How many history items came before it. */
  readonly historyLength: number;
  readonly reason: 'edit' | 'retry';
}

export interface MessagesChat {
  readonly transcript: Transcript;
  /** The chat's conversation, if it has been made (nothing is loaded for asking). */
  conversation(): Conversation | undefined;
  /** The chat's conversation, made now if it was not; undefined with no folder open. */
  ensureConversation(): Conversation | undefined;
  /** Written into the chat's session, when it has one. */
  record(record: SessionRecord): void;
  post(message: HostMessage): void;
  /** A new message of the person's, as if sent from the composer. */
  send(text: string): Promise<void>;
  /** One turn for the message `entry` of the transcript; `again`: the history ends with its prompt already. */
  run(text: string, entry: string, again?: boolean): Promise<void>;
  /** The context block a message carried (its chips), by transcript entry: an edited message keeps it. */
  readonly attached: Map<string, string>;
  /**
   * Called with the message a conversation is about to be cut back to (Edit, Retry),
   * before anything is cut: checkpoints (DESIGN.md §10) offer to restore the files to that
   * point. False: the person cancelled, and nothing is cut or sent.
   */
  beforeRewind?(point: RewindPoint): boolean | Promise<boolean>;
  warn(text: string): void;
}

export class PanelMessages {
  /** Where each message of the person's joined the history (by transcript entry). */
  private marks = new Map<string, number>();

  constructor(private readonly chat: MessagesChat) {}

  /** The webview's messages this answers. */
  readonly handlers: Pick<Handlers<WebviewMessage>, 'queueMessage' | 'unqueueMessage' | 'editMessage' | 'retryMessage'> = {
    queueMessage: (message) => this.queue(message.text),
    unqueueMessage: (message) => this.unqueue(message.id),
    editMessage: (message) => void this.edit(message.entryId, message.text),
    retryMessage: (message) => void this.retry(message.entryId),
  };

  /** A resumed chat's marks (or none: a new chat). */
  restore(marks: ReadonlyMap<string, number> = new Map()): void {
    this.marks = new Map(marks);
  }

  /** The history was rewritten whole (compaction): no message is where it was. */
  historyReset(): void {
    this.marks.clear();
  }

  /** A loop event of the chat's turn for the message `entry`: its prompt is marked; a queued message delivered joins the transcript. */
  onEvent(event: LoopEvent, entry: string | undefined): void {
    if (event.type !== 'prompt') return;
    const at = (this.chat.conversation()?.history.length ?? 0) - 1;
    if (event.queued !== undefined) {
      const delivered = this.chat.transcript.append({ kind: 'user', text: event.text });
      this.mark(delivered, at);
      this.postQueue();
    } else if (!event.incoming && entry !== undefined) this.mark(entry, at);
  }

  private mark(entry: string, at: number): void {
    if (at < 0) return;
    this.marks.set(entry, at);
    this.chat.record({ type: 'mark', entry, at });
  }

  /** Text typed while a turn runs waits for its next step; with no turn running it is sent now. */
  queue(text: string): void {
    const conversation = this.chat.conversation();
    if (!conversation?.busy) {
      void this.chat.send(text);
      return;
    }
    conversation.queue.add(text);
    this.postQueue();
  }

  unqueue(id: string): void {
    this.chat.conversation()?.queue.remove(id);
    this.postQueue();
  }

  postQueue(): void {
    this.chat.post({ type: 'queue', messages: [...(this.chat.conversation()?.queue.messages ?? [])] });
  }

  /**
   * A turn ended: what is still queued goes on as the next message (the rest of the queue
   * joins at its first step). After Stop it waits, removable, for the next message sent.
   */
  async afterTurn(stopped: boolean): Promise<void> {
    const conversation = this.chat.conversation();
    if (stopped || !conversation || conversation.busy) return;
    const next = conversation.queue.shift();
    if (!next) return;
    this.postQueue();
    await this.chat.send(next.text);
  }

  /** Edit and resend: the conversation is cut before the message, and goes on with `text`. */
  async edit(entryId: string, text: string): Promise<void> {
    const found = this.pointOf(entryId, 'user');
    if (!found) return;
    const { entry, at, conversation } = found;
    if ((await this.chat.beforeRewind?.({ entryId, text: entry.text, historyLength: at, reason: 'edit' })) === false) return;
    this.cut(conversation, at, entryId, true);
    const context = entry.kind === 'user' ? entry.context : undefined;
    const edited = this.chat.transcript.append({ kind: 'user', text, ...(context ? { context } : {}) });
    const block = this.chat.attached.get(entryId);
    if (block) this.chat.attached.set(edited, block);
    await this.chat.run(text, edited);
  }

  /** Retry on Peon's last answer: its turn runs again from the person's message before it. */
  async retry(answerId: string): Promise<void> {
    const entries = this.chat.transcript.entries;
    const answer = entries.findIndex((e) => e.id === answerId);
    if (answer === -1 || entries.slice(answer + 1).some((e) => e.kind === 'assistant')) return this.chat.warn('Retry is offered on the last answer only.');
    const prompt = entries.slice(0, answer).reverse().find((e) => e.kind === 'user');
    if (!prompt) return;
    const found = this.pointOf(prompt.id, 'user');
    if (!found) return;
    const { at, conversation } = found;
    if ((await this.chat.beforeRewind?.({ entryId: prompt.id, text: found.entry.text, historyLength: at, reason: 'retry' })) === false) return;
    // The prompt stays (with what it carried); what came after it goes.
    this.cut(conversation, at + 1, prompt.id, false);
    await this.chat.run(found.entry.text, prompt.id, true);
  }

  /** The message, its mark and the conversation, when it can be cut there now; otherwise the chat says why not. */
  private pointOf(entryId: string, kind: 'user'): { entry: Extract<TranscriptEntry, { kind: 'user' }>; at: number; conversation: Conversation } | undefined {
    const entry = this.chat.transcript.entries.find((e) => e.id === entryId);
    const conversation = this.chat.ensureConversation();
    if (!entry || entry.kind !== kind || !conversation) return undefined;
    if (conversation.busy) {
      this.notice('Peon is still working: stop the turn first, then edit or retry.');
      return undefined;
    }
    const at = this.marks.get(entryId);
    if (at === undefined || at >= conversation.history.length) {
      this.notice('This message can no longer be changed: the turns up to it were summarised to fit the context window. Send a new message instead.');
      return undefined;
    }
    return { entry, at, conversation };
  }

  /** The history cut to `length` items, and the transcript from the message on (`withIt`) or after it. */
  private cut(conversation: Conversation, length: number, entryId: string, withIt: boolean): void {
    conversation.rewind(length);
    this.chat.record({ type: 'truncate', length });
    for (const [entry, at] of this.marks) if (at >= length) this.marks.delete(entry);
    const entries = this.chat.transcript.entries;
    const from = entries.findIndex((e) => e.id === entryId) + (withIt ? 0 : 1);
    for (const gone of entries.slice(from)) this.chat.transcript.remove(gone.id);
  }

  private notice(text: string): void {
    this.chat.transcript.append({ kind: 'notice', level: 'info', text });
  }
}
