// The panel's side of checkpoints (DESIGN.md §10): each step's changed files on its card,
// the files a turn changed listed at its end, their diffs, and Revert and Keep. A file
// changed again since is never overwritten silently: the conflict card shows its three
// versions and waits for Restore anyway or Keep mine. The chat's steps are saved with its
// session as they happen, so a resumed chat reverts them too. Everything the webview
// names (a step, a turn, a file) is looked up here in the chat's own record.
import path from 'node:path';
import type { Checkpoints, FileChange, Step } from '../core/checkpoints/checkpoints';
import { filesOf, netChange, revertFiles, type FileConflict, type FileHistory, type FilesReverted } from '../core/checkpoints/revertFiles';
import { Trash } from '../core/workspace/trash';
import { CONFLICT_DIFF_CHARS, MAX_LISTED_FILES, type ChangedFile, type ChangesTarget, type ConflictFile, type Handlers, type HostMessage, type TranscriptEntry, type WebviewMessage } from '../shared/messages';
import { changedFile, turnFiles, type FileNames } from './changedFiles';
import type { Transcript } from './transcript';

/** One side of a diff the host opens: a version a step kept, a workspace file as it is now, or nothing (the file did not exist). */
export type DiffSide = { kind: 'stored'; step: string; index: number; side: 'before' | 'after'; name: string } | { kind: 'file'; path: string } | { kind: 'empty'; name: string };

export interface CheckpointHooks {
  /** The chat's checkpoints (its conversation made if need be); undefined where nothing is tracked (no folder, not trusted). */
  readonly checkpoints: () => Checkpoints | undefined;
  readonly post: (message: HostMessage) => void;
  readonly transcript: Transcript;
  readonly names: FileNames;
  /** A step recorded into the chat's session. */
  readonly save: (step: Step) => void;
  readonly openDiff: (left: DiffSide, right: DiffSide, title: string) => Promise<void>;
  /** A unified diff of two texts (the runtime's, as approval cards show). */
  readonly diff: (name: string, before: string | undefined, after: string) => string;
  readonly notice: (level: 'info' | 'warning', text: string) => void;
  /** Where the delete tool keeps what it deletes: a deleted file the checkpoints no longer hold comes back from there. */
  readonly trashDir?: string;
}

type Handled = 'openChange' | 'revertChanges' | 'keepChanges' | 'resolveConflict' | 'openConflict';
type TurnEntry = Extract<TranscriptEntry, { kind: 'changes' }>;
type PendingConflict = { action: string; files: Map<string, FileConflict> };

const changeKey = (step: string, change: Pick<FileChange, 'root' | 'path'>): string => `${step}\0${change.root}\0${change.path}`;
const baseName = (name: string): string => name.split('/').pop() || name;

export class PanelCheckpoints {
  /** The chat's steps that changed files, by id: saved with its session, restored with it. */
  private readonly steps = new Map<string, Step>();
  private readonly seen = new Set<string>();
  /** Changes put back (step, folder, path): what a card and a turn's list show as reverted. */
  private reverted = new Set<string>();
  private rebuilt = false;
  private readonly restoredInto = new WeakSet<Checkpoints>();
  private readonly conflicts = new Map<string, PendingConflict>();
  /** The running turn: its checkpoints, and the steps known when it started. */
  private turn: { checkpoints: Checkpoints; known: Set<string> } | undefined;
  private nextConflict = 1;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly hooks: CheckpointHooks) {}

  /** A new chat: nothing recorded, no card waiting. */
  clear(): void {
    this.steps.clear();
    this.seen.clear();
    this.reverted = new Set();
    this.rebuilt = false;
    this.turn = undefined;
    for (const id of this.conflicts.keys()) this.hooks.post({ type: 'revertConflictSettled', id });
    this.conflicts.clear();
  }

  /** A resumed chat's saved steps (its transcript is restored already). */
  load(steps: readonly Step[]): void {
    this.clear();
    for (const step of steps) {
      this.steps.set(step.id, step);
      this.seen.add(step.id);
    }
  }

  /** The conflict cards still waiting, to a webview that (re)loaded. */
  postAll(): void {
    for (const id of [...this.conflicts.keys()]) this.postConflict(id);
  }

  /** The messages this handles, for the panel's dispatch. Reverts run one after the other: a second click finds the first one's work done. */
  readonly handlers: Pick<Handlers<WebviewMessage>, Handled> = {
    openChange: (m) => void this.guard(() => this.openChange(m.target, m.path)),
    revertChanges: (m) => void this.guard(() => this.revert(m.target, m.paths, 'turn' in m.target ? 'Revert the turn' : 'Revert this step')),
    keepChanges: (m) => this.keep(m.turn, m.paths),
    resolveConflict: (m) => void this.guard(() => this.resolve(m.id, m.path, m.choice)),
    openConflict: (m) => void this.guard(() => this.openConflict(m.id, m.path, m.compare)),
  };

  /** Steps taken since the last look (subagents' too) recorded into the session. */
  sync(): void {
    for (const step of this.checkpoints()?.list() ?? []) {
      if (this.seen.has(step.id)) continue;
      this.seen.add(step.id);
      if (step.changes.length === 0) continue;
      this.steps.set(step.id, step);
      this.hooks.save(step);
    }
  }

  /** A turn starts: the steps taken from now on are its own. */
  turnStarted(): void {
    const checkpoints = this.checkpoints();
    this.turn = checkpoints ? { checkpoints, known: new Set(checkpoints.list().map((s) => s.id)) } : undefined;
  }

  /** The turn is over: the files it changed (all its steps together) are listed at its end. */
  turnEnded(): void {
    const turn = this.turn;
    this.turn = undefined;
    if (!turn) return;
    this.sync();
    const steps = turn.checkpoints.list().filter((s) => !turn.known.has(s.id));
    const untracked = steps.filter((s) => s.untracked).length;
    const files = turnFiles(filesOf(steps), this.hooks.names).map((f) => f.file);
    if (files.length === 0 && untracked === 0) return;
    const listed = files.slice(0, MAX_LISTED_FILES);
    this.hooks.transcript.append({
      kind: 'changes',
      steps: steps.filter((s) => s.changes.length > 0).map((s) => s.id),
      files: listed,
      ...(files.length > listed.length ? { more: files.length - listed.length } : {}),
      ...(untracked > 0 ? { untracked } : {}),
    });
  }

  /** A version a step kept, as the diff editor shows it. */
  stored(stepId: string, index: number, side: 'before' | 'after'): string {
    const change = this.step(stepId)?.changes[index];
    if (!change) return '(This step is not part of the chat shown in the panel.)';
    if (change[side] === undefined) return '';
    const bytes = this.checkpoints()?.content(change, side);
    if (!bytes) return change.restorable ? '(Not kept any more: the checkpoints storage is capped, and older steps go first.)' : '(Larger than the size checkpoints keep: peon.checkpoints.maxFileMB.)';
    return bytes.includes(0) ? `(A binary file of ${bytes.length} bytes.)` : bytes.toString('utf8');
  }

  /** How many files steps after the person's message `entryId` changed that are not reverted yet (edit and resend offers to restore them). */
  filesSince(entryId: string): number {
    return this.pending(filesOf(this.stepsAfter(entryId))).filter((h) => netChange(h).kind !== 'none').length;
  }

  /**
   * Restores the files to how they were when the person sent message `entryId`: every
   * step after it reverted, newest first; a file changed since is asked about.
   */
  restoreToMessage(entryId: string): Promise<void> {
    return this.guard(() => this.revertHistories(this.pending(filesOf(this.stepsAfter(entryId))), 'Restore files to before a message'));
  }

  /** The checkpoints, with the chat's saved steps in them. */
  private checkpoints(): Checkpoints | undefined {
    const checkpoints = this.hooks.checkpoints();
    if (checkpoints && !this.restoredInto.has(checkpoints)) {
      checkpoints.restore([...this.steps.values()]);
      this.restoredInto.add(checkpoints);
    }
    return checkpoints;
  }

  private step(id: string): Step | undefined {
    this.sync();
    return this.steps.get(id);
  }

  /** Runs `work` after what is queued; what fails is said in the chat. */
  private guard(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work).catch((error: unknown) => this.hooks.notice('warning', `Checkpoints: ${error instanceof Error ? error.message : String(error)}`));
    this.queue = next;
    return next;
  }

  /** Steps after the person's message: those its later cards and turn lists name. */
  private stepsAfter(entryId: string): Step[] {
    const entries = this.hooks.transcript.entries;
    const at = entries.findIndex((e) => e.id === entryId && e.kind === 'user');
    if (at === -1) return [];
    const ids = new Set<string>();
    for (const entry of entries.slice(at + 1)) {
      if (entry.kind === 'tool' && entry.changes) ids.add(entry.changes.step);
      if (entry.kind === 'changes') for (const id of entry.steps) ids.add(id);
    }
    return [...ids].map((id) => this.step(id)).filter((s): s is Step => s !== undefined);
  }

  /** Histories without the changes already put back; files with none left are dropped. */
  private pending(histories: readonly FileHistory[]): FileHistory[] {
    this.rebuild();
    return histories.map((h) => ({ ...h, changes: h.changes.filter((c) => !this.reverted.has(changeKey(c.step.id, c.change))) })).filter((h) => h.changes.length > 0);
  }

  /** What a card or a turn's list names, as file histories; `paths`: only these names. */
  private histories(target: ChangesTarget, paths?: readonly string[]): FileHistory[] {
    const all = 'step' in target ? this.stepHistories(target.step) : this.turnHistories(target.turn);
    return all.filter((f) => f.state === undefined && (!paths || paths.includes(f.file.path))).map((f) => f.history);
  }

  /** Each file of a step: its history (that one change), its row, and what became of it. */
  private stepHistories(stepId: string): { history: FileHistory; file: ChangedFile; state?: 'reverted' }[] {
    const step = this.step(stepId);
    if (!step) return [];
    this.rebuild();
    return step.changes.map((change) => {
      const history = { root: change.root, path: change.path, changes: [{ step, change }] };
      return { history, file: changedFile(change, this.hooks.names), ...(this.reverted.has(changeKey(step.id, change)) ? { state: 'reverted' as const } : {}) };
    });
  }

  private turnEntry(id: string): TurnEntry | undefined {
    const entry = this.hooks.transcript.entries.find((e) => e.id === id);
    return entry?.kind === 'changes' ? entry : undefined;
  }

  /** Each file a turn listed: its history over the turn's steps, and what became of it (kept, reverted). */
  private turnHistories(id: string): { history: FileHistory; file: ChangedFile; state?: 'reverted' | 'kept' }[] {
    const entry = this.turnEntry(id);
    if (!entry) return [];
    this.rebuild();
    const steps = entry.steps.map((s) => this.step(s)).filter((s): s is Step => s !== undefined);
    const listed = new Map(entry.files.map((f) => [f.path, f]));
    return turnFiles(filesOf(steps), this.hooks.names).flatMap(({ history, file }) => {
      // A file past the list is reverted with the turn all the same.
      const shown = listed.get(file.path);
      if (!shown && !entry.more) return [];
      const reverted = history.changes.every((c) => this.reverted.has(changeKey(c.step.id, c.change)));
      const state = shown?.state === 'kept' ? 'kept' : reverted ? 'reverted' : undefined;
      return [{ history, file, ...(state ? { state } : {}) }];
    });
  }

  /** After a reload or a resume: which changes were put back, from what the cards and lists say. */
  private rebuild(): void {
    if (this.rebuilt) return;
    this.rebuilt = true;
    for (const entry of this.hooks.transcript.entries) {
      const files = entry.kind === 'tool' ? entry.changes?.files : entry.kind === 'changes' ? entry.files : undefined;
      const reverted = new Set(files?.filter((f) => f.state === 'reverted').map((f) => f.path));
      if (reverted.size === 0) continue;
      const rows = entry.kind === 'tool' ? this.stepHistories(entry.changes!.step) : this.turnHistories(entry.id);
      for (const row of rows) if (reverted.has(row.file.path)) for (const c of row.history.changes) this.reverted.add(changeKey(c.step.id, c.change));
    }
  }

  private async revert(target: ChangesTarget, paths: readonly string[] | undefined, action: string): Promise<void> {
    await this.revertHistories(this.pending(this.histories(target, paths)), action);
  }

  private async revertHistories(histories: FileHistory[], action: string, force = false): Promise<void> {
    const checkpoints = this.checkpoints();
    if (histories.length === 0) return;
    if (!checkpoints) throw new Error('this chat has no checkpoints (the workspace is not trusted, or no folder is open).');
    const result = await revertFiles(checkpoints, histories, { force, ...(this.hooks.trashDir ? { trash: new Trash(this.hooks.trashDir) } : {}) });
    this.settle(result);
    if (result.conflicts.length > 0) {
      const id = `c${this.nextConflict++}`;
      const files = new Map(result.conflicts.map((c) => [this.hooks.names(c.history.root, c.history.path), c]));
      this.conflicts.set(id, { action, files });
      this.postConflict(id);
    }
  }

  /** What a revert put back is marked on every card and list that shows it; what it could not is said. */
  private settle(result: FilesReverted): void {
    for (const { step, change } of result.restored) this.reverted.add(changeKey(step.id, change));
    if (result.lost.length > 0) {
      const lines = result.lost.map((l) => `${this.hooks.names(l.change.root, l.change.path)}: ${l.why}`);
      this.hooks.notice('warning', `Not restored: ${lines.join('; ')}.`);
    }
    if (result.restored.length > 0) this.refresh();
  }

  /** Every card and list whose files' states changed is sent again. */
  private refresh(): void {
    for (const entry of this.hooks.transcript.entries) {
      const rows = entry.kind === 'tool' && entry.changes ? this.stepHistories(entry.changes.step) : entry.kind === 'changes' ? this.turnHistories(entry.id) : undefined;
      const files = entry.kind === 'tool' ? entry.changes?.files : entry.kind === 'changes' ? entry.files : undefined;
      if (!rows || !files) continue;
      const states = new Map(rows.map((r) => [r.file.path, r.state]));
      const next = files.map((f): ChangedFile => {
        const state = states.get(f.path) ?? f.state;
        const { state: _was, ...rest } = f;
        return state ? { ...rest, state } : rest;
      });
      if (next.some((f, i) => f.state !== files[i]!.state)) this.hooks.transcript.changeFiles(entry.id, next);
    }
  }

  private keep(turn: string, paths: readonly string[]): void {
    const entry = this.turnEntry(turn);
    if (!entry) return;
    const files = entry.files.map((f) => (paths.includes(f.path) && f.state === undefined ? { ...f, state: 'kept' as const } : f));
    this.hooks.transcript.changeFiles(turn, files);
  }

  private postConflict(id: string): void {
    const pending = this.conflicts.get(id);
    if (!pending || pending.files.size === 0) {
      this.conflicts.delete(id);
      this.hooks.post({ type: 'revertConflictSettled', id });
      return;
    }
    const files: ConflictFile[] = [...pending.files].map(([name, c]) => ({
      path: name,
      now: c.current ? 'changed' : 'deleted',
      since: this.diffOf(name, c.after, c.current),
      restore: this.diffOf(name, c.current, c.before),
    }));
    this.hooks.post({ type: 'revertConflict', conflict: { id, action: pending.action, files } });
  }

  private diffOf(name: string, from: Buffer | undefined, to: Buffer | undefined): string {
    if (from?.includes(0) || to?.includes(0)) return `(a binary file: ${from?.length ?? 0} bytes → ${to?.length ?? 0} bytes)`;
    const diff = this.hooks.diff(name, from?.toString('utf8'), to?.toString('utf8') ?? '');
    return diff.length > CONFLICT_DIFF_CHARS ? `${diff.slice(0, diff.lastIndexOf('\n', CONFLICT_DIFF_CHARS - 80))}\n\\ (the rest is in the diff editor)` : diff;
  }

  private async resolve(id: string, name: string, choice: 'restore' | 'keep'): Promise<void> {
    const pending = this.conflicts.get(id);
    const conflict = pending?.files.get(name);
    if (!pending || !conflict) return;
    pending.files.delete(name);
    if (choice === 'restore') {
      const checkpoints = this.checkpoints();
      if (checkpoints) this.settle(await revertFiles(checkpoints, [conflict.history], { force: true, ...(this.hooks.trashDir ? { trash: new Trash(this.hooks.trashDir) } : {}) }));
    }
    this.postConflict(id);
  }

  /** A conflict's versions side by side: what changed since the step (its version → now), or what restoring does (now → before it). */
  private async openConflict(id: string, name: string, compare: 'since' | 'restore'): Promise<void> {
    const conflict = this.conflicts.get(id)?.files.get(name);
    if (!conflict) return;
    const { history } = conflict;
    const now: DiffSide = conflict.current ? { kind: 'file', path: path.join(history.root, ...history.path.split('/')) } : { kind: 'empty', name };
    const base = baseName(name);
    if (compare === 'since') await this.hooks.openDiff(this.side(history.changes[history.changes.length - 1]!, 'after', name), now, `${base} (Peon's version ↔ now)`);
    else await this.hooks.openDiff(now, this.side(history.changes[0]!, 'before', name), `${base} (now ↔ before Peon's change)`);
  }

  private async openChange(target: ChangesTarget, name: string): Promise<void> {
    const row = ('step' in target ? this.stepHistories(target.step) : this.turnHistories(target.turn)).find((r) => r.file.path === name);
    if (!row) return;
    const { changes } = row.history;
    const title = `${baseName(name)} (before ↔ after ${'step' in target ? 'the step' : 'the turn'})`;
    await this.hooks.openDiff(this.side(changes[0]!, 'before', name), this.side(changes[changes.length - 1]!, 'after', name), title);
  }

  /** One side of a change, as the diff editor opens it (a file that did not exist: empty). */
  private side({ step, change }: { step: Step; change: FileChange }, side: 'before' | 'after', name: string): DiffSide {
    if (change[side] === undefined) return { kind: 'empty', name };
    return { kind: 'stored', step: step.id, index: step.changes.indexOf(change), side, name };
  }
}
