// What the panel shows of checkpoints (DESIGN.md §10): the files a step changed (on its
// tool card) and a turn changed (the list at its end), each with what became of it —
// reverted, or kept and dismissed — and the card that asks before a file changed since
// is overwritten. Files are named as the panel names them; the host looks each name up
// in its own record of the step, never taking one from the webview as a path.
import * as z from 'zod';

const id = z.string().min(1).max(100);
const name = z.string().min(1).max(4096);

/** A card lists at most this many files; the rest are counted (and reverted with the step). */
export const MAX_LISTED_FILES = 200;
/** A conflict card's diffs are cut here (the diff editor shows them whole). */
export const CONFLICT_DIFF_CHARS = 20_000;

export const ChangeKind = z.enum(['created', 'modified', 'deleted', 'renamed']);
export type ChangeKind = z.infer<typeof ChangeKind>;

export const ChangedFile = z.object({
  /** Relative to its folder (`folder/…` with several folders). */
  path: name,
  kind: ChangeKind,
  /** A moved file's old name. */
  from: name.optional(),
  /** False: a side was above the size kept for checkpoints; it cannot be put back. */
  restorable: z.boolean(),
  /** Put back as it was before (reverted), or dismissed from a turn's list (kept). */
  state: z.enum(['reverted', 'kept']).optional(),
});
export type ChangedFile = z.infer<typeof ChangedFile>;

/** What a step's tool card says it changed. */
export const StepChangesView = z.object({
  step: id,
  /** "created 1 file, changed 2, deleted 1", or why the changes are not known. */
  summary: z.string().max(2200),
  files: z.array(ChangedFile).max(MAX_LISTED_FILES),
  /** Files past the list. */
  more: z.number().int().min(0).optional(),
  /** Why the changes are not known (the first snapshot still running, a scan that failed). */
  untracked: z.string().max(2000).optional(),
  /** Other steps ran at the same time: what it found may be theirs too. */
  overlapped: z.literal(true).optional(),
});
export type StepChangesView = z.infer<typeof StepChangesView>;

/** The end of a turn: the files it changed, all its steps together (the host keeps which steps). */
export const TurnChangesEntry = z.object({
  kind: z.literal('changes'),
  id,
  steps: z.array(id).max(10_000),
  files: z.array(ChangedFile).max(MAX_LISTED_FILES),
  more: z.number().int().min(0).optional(),
  /** Steps of the turn whose changes are not known. */
  untracked: z.number().int().min(0).optional(),
});

/** What became of a card's or a turn's files (by entry id): the list as it is now. */
export const ChangeFilesMessage = z.object({ type: z.literal('changeFiles'), id, files: z.array(ChangedFile).max(MAX_LISTED_FILES) });

/** A file changed again since the step: its three versions, as diffs between them. */
export const ConflictFile = z.object({
  path: name,
  /** What it is now: changed since, or gone. */
  now: z.enum(['changed', 'deleted']),
  /** What changed since the step: the step's version → now. */
  since: z.string().max(CONFLICT_DIFF_CHARS),
  /** What restoring does: now → before the step. */
  restore: z.string().max(CONFLICT_DIFF_CHARS),
});
export type ConflictFile = z.infer<typeof ConflictFile>;

export const RevertConflict = z.object({
  id,
  /** What was being reverted: "Revert this step", "Revert the turn", "Restore files to before a message". */
  action: z.string().max(200),
  files: z.array(ConflictFile).min(1).max(MAX_LISTED_FILES),
});
export type RevertConflict = z.infer<typeof RevertConflict>;

/** Whose files a revert or a diff is about: a step (its tool card, by the step's id) or a turn (its list, by entry id). */
export const ChangesTarget = z.union([z.object({ step: id }), z.object({ turn: id })]);
export type ChangesTarget = z.infer<typeof ChangesTarget>;

export const CheckpointWebviewMessages = [
  /** A changed file's diff, before and after the step (or the turn), in VS Code's diff editor. */
  z.object({ type: z.literal('openChange'), target: ChangesTarget, path: name }),
  /** Revert a step or a turn (`paths`: only these of its files). */
  z.object({ type: z.literal('revertChanges'), target: ChangesTarget, paths: z.array(name).min(1).max(MAX_LISTED_FILES).optional() }),
  /** Keep: dismiss files from a turn's list. */
  z.object({ type: z.literal('keepChanges'), turn: id, paths: z.array(name).min(1).max(MAX_LISTED_FILES) }),
  /** A conflict card's answer for one file: restore it anyway, or keep it as it is now. */
  z.object({ type: z.literal('resolveConflict'), id, path: name, choice: z.enum(['restore', 'keep']) }),
  /** A conflict card's comparison in the diff editor: what changed since the step, or what restoring does. */
  z.object({ type: z.literal('openConflict'), id, path: name, compare: z.enum(['since', 'restore']) }),
] as const;

export const CheckpointHostMessages = [
  ChangeFilesMessage,
  /** A revert stopped at files changed since: the card asks about each. Sent again as files are answered. */
  z.object({ type: z.literal('revertConflict'), conflict: RevertConflict }),
  /** Every file of the card was answered (or the chat was replaced). */
  z.object({ type: z.literal('revertConflictSettled'), id }),
] as const;
