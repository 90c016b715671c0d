// The host <-> webview protocol, declared once. Both sides import these schemas and
// validate every message they receive: a webview is a web page, and the host treats
// it as untrusted input; the webview does the same with what the host sends.
import * as z from 'zod';

const id = z.string().min(1).max(100);
/** Bounds a composer message; a paste larger than this is refused, not silently cut. */
export const MAX_MESSAGE_CHARS = 200_000;
/** A tool card shows at most this much of its arguments and its result (the model gets all of it). */
export const TOOL_CARD_CHARS = 4000;

export const ModelStatus = z.discriminatedUnion('state', [
  z.object({ state: z.literal('unconfigured') }),
  z.object({ state: z.literal('configured'), provider: z.string().max(100), model: z.string().max(200).optional() }),
]);
export type ModelStatus = z.infer<typeof ModelStatus>;

export const TranscriptEntry = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id, text: z.string().max(MAX_MESSAGE_CHARS) }),
  /** Something Peon tells the user about itself (never model output). */
  z.object({ kind: z.literal('notice'), id, level: z.enum(['info', 'warning', 'error']), text: z.string().max(4000) }),
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
    status: z.enum(['running', 'ok', 'error']),
    output: z.string().max(TOOL_CARD_CHARS),
  }),
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** The token meter's numbers. */
const Meter = z.object({
  contextTokens: z.number().int().min(0),
  contextWindow: z.number().int().min(1),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cacheReadTokens: z.number().int().min(0),
  /** USD of the last prompt and of the chat, when the model's price is known. */
  promptCost: z.number().min(0).optional(),
  chatCost: z.number().min(0).optional(),
});
export type Meter = z.infer<typeof Meter>;

/** Host -> webview. */
export const HostMessage = z.discriminatedUnion('type', [
  /** The whole conversation, sent once when the webview (re)loads or a chat starts. */
  z.object({ type: z.literal('init'), entries: z.array(TranscriptEntry).max(100_000), model: ModelStatus, meter: Meter.optional() }),
  /** One entry appended: the host sends deltas, never the transcript again. */
  z.object({ type: z.literal('append'), entry: TranscriptEntry }),
  z.object({ type: z.literal('model'), model: ModelStatus }),
  /** More text for an assistant entry. */
  z.object({ type: z.literal('delta'), id, text: z.string().max(1_000_000) }),
  /** A tool card's new status and output. */
  z.object({ type: z.literal('tool'), id, status: z.enum(['running', 'ok', 'error']), output: z.string().max(TOOL_CARD_CHARS) }),
  /** The token meter: how full the context window is, and what this chat has used. */
  Meter.extend({ type: z.literal('usage') }),
  /** Models found for the first-run choices: a local Ollama's (localhost:11434) and VS Code's. */
  z.object({
    type: z.literal('localModels'),
    models: z.array(z.string().min(1).max(200)).max(20),
    /** VS Code's own chat models (Copilot's, or another extension's): no key needed. */
    languageModels: z.array(z.object({ id: z.string().min(1).max(200), name: z.string().max(200) })).max(50).default([]),
  }),
  /** Whether a turn is running (the composer offers Stop). */
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

/** Webview -> host. */
export const WebviewMessage = z.discriminatedUnion('type', [
  /** The app mounted; `composer` says the composer rendered (checked by the in-host tests). */
  z.object({ type: z.literal('ready'), composer: z.boolean() }),
  z.object({ type: z.literal('send'), text: z.string().trim().min(1).max(MAX_MESSAGE_CHARS) }),
  z.object({ type: z.literal('stop') }),
  /** A first-run choice: a provider (asks for a key and a model), or a local model found by the host. */
  z.discriminatedUnion('choice', [
    z.object({ type: z.literal('setup'), choice: z.enum(['anthropic', 'openai']) }),
    z.object({ type: z.literal('setup'), choice: z.enum(['local', 'vscode-lm']), model: z.string().min(1).max(200) }),
  ]),
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): ParseResult<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, error: `${issue?.message ?? 'invalid message'}${where}` };
}

export const parseHostMessage = (raw: unknown): ParseResult<HostMessage> => parseWith(HostMessage, raw);
export const parseWebviewMessage = (raw: unknown): ParseResult<WebviewMessage> => parseWith(WebviewMessage, raw);

/** One handler per message type: forgetting one is a compile error. */
export type Handlers<M extends { type: string }> = { [K in M['type']]: (message: Extract<M, { type: K }>) => void };

export function dispatch<M extends { type: string }>(handlers: Handlers<M>, message: M): void {
  (handlers[message.type as M['type']] as (m: M) => void)(message);
}
