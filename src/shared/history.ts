// The panel's history and message actions (walkthrough #14, #15) and the trash: saved
// chats as the history view and the empty state list them, messages queued during a
// turn, and the files this conversation deleted.
import * as z from 'zod';
import { MAX_MESSAGE_CHARS } from './transcript';

const id = z.string().min(1).max(100);

/** A saved session's id (the host looks every one up in its store; nothing else is a path). */
export const SessionId = z.string().regex(/^[0-9a-z]+-[0-9a-f]{6}$/);
/** A trash entry's id. */
export const TrashId = z.string().regex(/^[a-z0-9]+-[0-9a-f]{8}$/);

/** The longest title a chat may be given. */
export const MAX_TITLE_CHARS = 100;

/** A saved chat as the history view lists it. */
export const SessionInfo = z.object({
  id: SessionId,
  title: z.string().max(MAX_TITLE_CHARS + 100),
  createdAt: z.string().max(40),
  /** When it last changed. */
  updatedAt: z.string().max(40),
  messages: z.number().int().min(0),
  /** What it cost in USD, when known. */
  cost: z.number().min(0).optional(),
  /** Where the search found a word of the query in its messages. */
  snippet: z.string().max(400).optional(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** The history view's list for `query`: the most recently active first. */
export const HistoryList = z.object({
  query: z.string().max(200),
  sessions: z.array(SessionInfo).max(500),
  /** How many chats there are; how many were matched by title only (the search read all it may per query). */
  total: z.number().int().min(0),
  titlesOnly: z.number().int().min(0),
  /** The chat the panel shows. */
  current: SessionId.optional(),
});
export type HistoryList = z.infer<typeof HistoryList>;

/** A message typed during a turn, waiting for the next step. */
export const QueuedMessage = z.object({ id, text: z.string().max(MAX_MESSAGE_CHARS) });
export type QueuedMessage = z.infer<typeof QueuedMessage>;

/** A file this conversation deleted, kept in the trash. */
export const TrashItem = z.object({
  id: TrashId,
  /** Where it was: relative to the workspace where it is in one. */
  path: z.string().max(4096),
  size: z.number().int().min(0),
  deletedAt: z.string().max(40),
  link: z.boolean(),
});
export type TrashItem = z.infer<typeof TrashItem>;
