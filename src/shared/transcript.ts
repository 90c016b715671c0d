// The transcript as host and webview share it: its entries (messages, tool cards, skill
// chips, notices) and how it grows (an entry appended, text streamed in, a card updated).
import * as z from 'zod';
import { MAX_CHIPS, SentChip } from './contextChips';

const id = z.string().min(1).max(100);

/** Bounds a composer message; a paste larger than this is refused, not silently cut. */
export const MAX_MESSAGE_CHARS = 200_000;
/** A tool card shows at most this much of its arguments and its result (the model gets all of it). */
export const TOOL_CARD_CHARS = 4000;
/** A tool card's one-sentence headline. */
export const TOOL_HEADLINE_CHARS = 300;

/** What a notice offers to do about it; the host decides what each does (Set API Key, re-send the last message, Select Model). */
export const NOTICE_ACTIONS = ['setApiKey', 'retry', 'selectModel'] as const;
export const NoticeAction = z.enum(NOTICE_ACTIONS);
export type NoticeAction = z.infer<typeof NoticeAction>;

/** A tool call's state: waiting for the person's approval, running, or finished. */
const ToolStatus = z.enum(['waiting', 'running', 'ok', 'error']);

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
    /** What happened, in one sentence, once it finished ("Fetched example.org/docs · 34 KB → Markdown"). */
    headline: z.string().max(TOOL_HEADLINE_CHARS).optional(),
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
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** One entry appended: the host sends deltas, never the transcript again. */
export const AppendMessage = z.object({ type: z.literal('append'), entry: TranscriptEntry });
/** More text for an assistant entry. */
export const DeltaMessage = z.object({ type: z.literal('delta'), id, text: z.string().max(1_000_000) });
/** A tool card's new status and output. */
export const ToolMessage = z.object({ type: z.literal('tool'), id, status: ToolStatus, output: z.string().max(TOOL_CARD_CHARS), headline: z.string().max(TOOL_HEADLINE_CHARS).optional() });
/** An entry taken away (a notice that no longer holds: "no model yet" once one is chosen). */
export const RemoveMessage = z.object({ type: z.literal('remove'), id });
/** How a transcript grows: the main one's and an open subagent's alike. */
export const TranscriptUpdate = z.discriminatedUnion('type', [AppendMessage, DeltaMessage, ToolMessage]);
export type TranscriptUpdate = z.infer<typeof TranscriptUpdate>;

