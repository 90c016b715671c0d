// The panel's way on when no model can answer: a message sent before a model is chosen
// (or before its key is set) waits in the chat and is sent once one is, its notice taken
// away then; and the buttons of notices (Set API Key, Retry, Select Model), which the
// host checks against the notice they came from before doing anything.
import type { NoticeAction } from '../shared/messages';
import type { Transcript } from './transcript';

export interface PanelSetupHooks {
  /** Why no model can answer now (undefined: one can); `key`: what is missing is an API key. */
  problem(): Promise<{ problem: string; key?: boolean } | undefined>;
  /** Runs one turn for `text` (already in the transcript as the person's message `entry`, which names the context it carried). */
  run(text: string, entry?: string): Promise<void>;
  busy(): boolean;
  selectModel(): Promise<void>;
  setApiKey(): Promise<unknown>;
  warn(text: string): void;
}

export class PanelSetup {
  /** Messages waiting for a model, each with its notice. */
  private held: { text: string; notice: string; entry?: string }[] = [];
  private releasing = false;

  constructor(
    private readonly transcript: Transcript,
    private readonly hooks: PanelSetupHooks,
  ) {}

  /** `text` cannot be sent yet (`problem`): it waits, and the notice says so and offers the way on. */
  hold(text: string, problem: { problem: string; key?: boolean }, entry?: string): void {
    const notice = this.transcript.append({
      kind: 'notice',
      level: 'warning',
      text: `${problem.problem} Your message waits here: it is sent once a model is ${problem.key ? 'ready' : 'chosen'}.`,
      actions: problem.key ? ['setApiKey', 'selectModel'] : ['selectModel'],
    });
    this.held.push({ text, notice, ...(entry ? { entry } : {}) });
  }

  /** Whether a message waits for a model. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /** The chat was replaced (a new or resumed one): what waited in it is dropped with it. */
  clear(): void {
    this.held = [];
  }

  /** The settings or the keys changed: once a model can answer, the waiting messages go, in order, and their notices with them. */
  async release(): Promise<void> {
    if (this.held.length === 0 || this.releasing || this.hooks.busy()) return;
    this.releasing = true;
    try {
      if (await this.hooks.problem()) return;
      const waiting = this.held;
      this.held = [];
      for (const { notice } of waiting) this.transcript.remove(notice);
      for (const { text, entry } of waiting) await this.hooks.run(text, entry);
    } finally {
      this.releasing = false;
    }
  }

  /** A notice's button: done only when that notice (still) offers it. */
  async action(entryId: string, action: NoticeAction): Promise<void> {
    const at = this.transcript.entries.findIndex((e) => e.id === entryId);
    const notice = this.transcript.entries[at];
    if (notice?.kind !== 'notice' || !notice.actions?.includes(action)) {
      this.hooks.warn(`Ignored a notice action (${action}) that no notice ${entryId} offers.`);
      return;
    }
    if (action === 'selectModel') return this.hooks.selectModel();
    if (action === 'setApiKey') {
      await this.hooks.setApiKey();
      return;
    }
    // Retry: the person's last message again, when this notice is about it (nothing of theirs came after) and no turn runs.
    const after = this.transcript.entries.slice(at + 1);
    const message = this.transcript.entries
      .slice(0, at)
      .reverse()
      .find((e) => e.kind === 'user');
    if (this.hooks.busy() || message?.kind !== 'user' || after.some((e) => e.kind === 'user')) return;
    this.transcript.remove(entryId);
    await this.hooks.run(message.text, message.id);
  }
}
