// The transcript as host and webview share it: its entries (messages, tool cards, skill
// chips, notices) and how it grows (an entry appended, text streamed in, a card updated).
import * as z from 'zod';
import { ChangeFilesMessage, StepChangesView, TurnChangesEntry, type ChangedFile } from './checkpoints';
import { MAX_CHIPS, SentChip } from './contextChips';

const id = z.string().min(1).max(100);

/** Bounds a composer message; a paste larger than this is refused, not silently cut. */
export const MAX_MESSAGE_CHARS = 200_000;
/** A tool card shows at most this much of its arguments and its result (the model gets all of it). */
export const TOOL_CARD_CHARS = 4000;
/** A tool card's one-sentence headline. */
export const TOOL_HEADLINE_CHARS = 300;
/** A tool card's applied change, as a unified diff (the card shows 30 rows until "Show all"). */
export const TOOL_DIFF_CHARS = 100_000;

/** What a notice offers to do about it; the host decides what each does (Set API Key, re-send the last message, Select Model). */
export const NOTICE_ACTIONS = ['setApiKey', 'retry', 'selectModel'] as const;
export const NoticeAction = z.enum(NOTICE_ACTIONS);
export type NoticeAction = z.infer<typeof NoticeAction>;

/**
 * A tool call's state: waiting for the person's approval, running, or finished: done,
 * failed, denied (by the person or a rule: never shown as an error), or cancelled (Stop).
 */
export const ToolStatus = z.enum(['waiting', 'running', 'ok', 'error', 'denied', 'cancelled']);
export type ToolStatus = z.infer<typeof ToolStatus>;

/** What a tool card shows besides its status and output, sent when the call starts and again when it ends. */
const ToolCardFacts = {
  /** What happened, in one sentence ("Read index.js · lines 1–40"); while it runs, what it does ("Run `npm test`"). */
  headline: z.string().max(TOOL_HEADLINE_CHARS).optional(),
  /** A second line: the model's description of a command, the person's deny message, why it failed. */
  detail: z.string().max(2000).optional(),
  /** The workspace file the card opens (the host resolves it: see the `openFile` message). */
  path: z.string().max(4096).optional(),
  /** The change it made, as a unified diff. */
  diff: z.string().max(TOOL_DIFF_CHARS).optional(),
  /** How long it ran (time on the approval card not counted). */
  durationMs: z.number().min(0).optional(),
  /** What the step changed in the workspace (its checkpoint), when it may change files. */
  changes: StepChangesView.optional(),
};

export const TranscriptEntry = z.discriminatedUnion('kind', [
  /** `context`: the chips it carried (context from the editor), shown under it. */
  z.object({ kind: z.literal('user'), id, text: z.string().max(MAX_MESSAGE_CHARS), context: z.array(SentChip).max(MAX_CHIPS).optional() }),
  /** Something Peon tells the user about itself (never model output). */
  z.object({ kind: z.literal('notice'), id, level: z.enum(['info', 'warning', 'error']), text: z.string().max(4000), actions: z.array(NoticeAction).max(NOTICE_ACTIONS.length).optional() }),
  /** The model's text, grown by `delta` messages while it streams; shown as text, never as HTML. */
  z.object({ kind: z.literal('assistant'), id, text: z.string().max(2_000_000) }),
  /** Earlier turns summarised to stay within the context window (shown collapsed). */
  z.object({ kind: z.literal('summary'), id, text: z.string().max(200_000) }),
  /** A tool call's card: what was asked, and (bounded for display) what came back. */
  z.object({
    kind: z.literal('tool'),
    id,
    name: z.string().max(100),
    args: z.string().max(TOOL_CARD_CHARS),
    status: ToolStatus,
    output: z.string().max(TOOL_CARD_CHARS),
    ...ToolCardFacts,
    /** What the card reads instead of the tool's name: an MCP tool's "server › tool" (its args then the one-line summary). */
    title: z.string().max(TOOL_HEADLINE_CHARS).optional(),
  }),
  /** `/skill-name` in the person's message loaded a skill (the chip under it): where from, its hash, what it hides, the subagent it forked, or why it failed. */
  z.object({
    kind: z.literal('skill'),
    id,
    name: z.string().max(64),
    source: z.string().max(4096),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    hidden: z.array(z.string().max(2000)).max(20),
    forked: z.string().max(40).optional(),
    error: z.string().max(2000).optional(),
  }),
  /** The end of a turn that changed files: each with Keep and Revert, and Revert the turn. */
  TurnChangesEntry,
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** One entry appended: the host sends deltas, never the transcript again. */
export const AppendMessage = z.object({ type: z.literal('append'), entry: TranscriptEntry });
/** More text for an assistant entry. */
export const DeltaMessage = z.object({ type: z.literal('delta'), id, text: z.string().max(1_000_000) });
/** A tool card's new status and output, and (when they changed) its sentence and facts. */
export const ToolMessage = z.object({ type: z.literal('tool'), id, status: ToolStatus, output: z.string().max(TOOL_CARD_CHARS), ...ToolCardFacts });
/** An entry taken away (a notice that no longer holds: "no model yet" once one is chosen). */
export const RemoveMessage = z.object({ type: z.literal('remove'), id });
/** How a transcript grows: the main one's and an open subagent's alike. */
export const TranscriptUpdate = z.discriminatedUnion('type', [AppendMessage, DeltaMessage, ToolMessage]);
export type TranscriptUpdate = z.infer<typeof TranscriptUpdate>;


/** A tool card as a `tool` message leaves it: what the message carries replaces what the card had; facts it leaves out stay. */
export function applyToolMessage(entry: Extract<TranscriptEntry, { kind: 'tool' }>, m: z.infer<typeof ToolMessage>): void {
  entry.status = m.status;
  entry.output = m.output;
  if (m.headline !== undefined) entry.headline = m.headline;
  if (m.detail !== undefined) entry.detail = m.detail;
  if (m.path !== undefined) entry.path = m.path;
  if (m.diff !== undefined) entry.diff = m.diff;
  if (m.durationMs !== undefined) entry.durationMs = m.durationMs;
  if (m.changes !== undefined) entry.changes = m.changes;
}

/** A step's card or a turn's list as a `changeFiles` message leaves it: its files (reverted, kept) as they are now. */
export function applyChangeFiles(entry: TranscriptEntry | undefined, m: z.infer<typeof ChangeFilesMessage>): void {
  const files: ChangedFile[] = m.files;
  if (entry?.kind === 'tool' && entry.changes) entry.changes.files = files;
  else if (entry?.kind === 'changes') entry.files = files;
}

/** The model request failed and is tried again after `delayMs` (attempt `attempt + 1`): the panel counts down. */
export const RetryMessage = z.object({ type: z.literal('retry'), attempt: z.number().int().min(1).max(1000), delayMs: z.number().min(0).max(3_600_000), error: z.string().max(2000) });
