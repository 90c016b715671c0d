// Checkpoints (DESIGN.md §10): every call that may change the workspace is a step whose
// side effects are recorded — created, modified, deleted and renamed files, each with
// its content before and after kept in a shadow repository per workspace folder (under
// Peon's storage; the user's .git is never read for writing nor touched). A command, a
// delegated agent or an MCP tool is a step of the whole folder: it is scanned before and
// after (treeState.ts). A file tool changes exactly the paths it assessed: only those are
// read. A step, or one file of it, can be reverted; a file that changed again since (a
// later step, the person) is never overwritten: revert reports the three versions and
// waits to be told. The first scan of a folder runs in the background and never holds a
// command up: a step taken before it ends says it was not tracked.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ObjectStore } from './objectStore';
import { pruneStore, type StepIndex } from './prune';
import { revertOne } from './revertStep';
import { deserializeTree, EMPTY_TREE, readFileState, scanTree, serializeTree, type FileState, type TreeState } from './treeState';

export type ChangeKind = 'created' | 'modified' | 'deleted' | 'renamed';

export interface FileChange {
  /** The workspace folder (its canonical path) and the file's path in it, '/'-separated. */
  readonly root: string;
  readonly path: string;
  /** A rename's old path. */
  readonly from?: string;
  readonly kind: ChangeKind;
  /** Git ids of the content before and after (absent: the file did not exist). */
  readonly before?: string;
  readonly after?: string;
  /** File modes, to restore them too; the mode the step left (changed since: the person's, asked about). */
  readonly beforeMode?: number;
  readonly afterMode?: number;
  /** The owner before, given back on revert (as root; a file tool's write keeps it the same way). */
  readonly beforeOwner?: { readonly uid: number; readonly gid: number };
  /** False when a side is above the size cap: recorded by id, not restorable. */
  readonly restorable: boolean;
}

export interface Step {
  readonly id: string;
  readonly tool: string;
  readonly at: number;
  readonly changes: readonly FileChange[];
  /** Why its changes are not known (the first scan still running, a scan that failed). */
  readonly untracked?: string;
  /** Other steps ran at the same time: what it found may include their changes. */
  readonly overlapped?: boolean;
}

export interface CheckpointsOptions {
  /** Canonical workspace folders. */
  readonly folders: readonly string[];
  /** Where the shadow repositories live (Peon's storage, never the workspace). */
  readonly dir: string;
  /** Files above this are recorded by id only (default 5 MiB). */
  readonly maxFileBytes?: number;
  /** The shadow repositories' objects, all folders together, are pruned oldest step first above this (default 1 GiB). */
  readonly maxStoreBytes?: number;
  /**
   * A step waits for the first snapshot instead of going untracked (the CLI: one call per
   * process, nothing to hurry for). The panel does not: its first snapshot starts when the
   * chat opens, and a large tree's must never hold a command up.
   */
  readonly waitForFirstScan?: boolean;
}

/** What one folder's shadow holds. */
interface Shadow {
  readonly root: string;
  readonly dir: string;
  readonly store: ObjectStore;
  tree: TreeState;
  /** The first scan, once started; `scanned` once it is done. */
  ready: Promise<void> | undefined;
  scanned: boolean;
  failed?: string;
  /** Scans of one folder run one after the other. */
  queue: Promise<unknown>;
}

/** A step taken: its folders' trees before it (folder steps) or its paths' states (file steps). */
export interface StepStart {
  readonly tool: string;
  readonly trees?: ReadonlyMap<string, TreeState>;
  readonly paths?: ReadonlyMap<string, FileState | undefined>;
  readonly untracked?: string;
  overlapped: boolean;
}

export interface Conflict {
  readonly change: FileChange;
  /** Its content now (absent: the file is gone), and what the step left (the change's after). */
  readonly current?: Buffer;
  readonly before?: Buffer;
  readonly after?: Buffer;
}

export interface RevertResult {
  readonly restored: readonly FileChange[];
  /** Changed again since the step: nothing was written; the person decides (force). */
  readonly conflicts: readonly Conflict[];
  /** Cannot be restored (above the size cap, or pruned), with why. */
  readonly lost: readonly { change: FileChange; why: string }[];
}

/** Every this many steps with changes, the storage is checked against its cap. */
const PRUNE_EVERY = 25;
const SAVE_AFTER_MS = 2000;
/** Checkpoints with a table not saved yet: saved when the process exits. */
const live = new Set<Checkpoints>();
process.once('exit', () => {
  for (const checkpoints of live) checkpoints.dispose();
});

const DEFAULT_MAX_FILE = 5 * 1024 * 1024;
const DEFAULT_MAX_STORE = 1024 * 1024 * 1024;

export class Checkpoints {
  private readonly shadows: Shadow[];
  private readonly steps = new Map<string, Step>();
  private readonly running = new Set<StepStart>();
  private readonly maxFileBytes: number;
  private recorded = 0;
  private pruned = false;
  private saveTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: CheckpointsOptions) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE;
    this.shadows = options.folders.map((root) => {
      const dir = path.join(options.dir, createHash('sha256').update(root).digest('hex').slice(0, 16));
      const store = new ObjectStore(path.join(dir, 'shadow.git'));
      store.init();
      fs.writeFileSync(path.join(dir, 'folder'), `${root}\n`);
      return { root, dir, store, tree: loadTree(dir), ready: undefined, scanned: false, queue: Promise.resolve() };
    });
  }

  /** Starts each folder's first scan (in the background): a new session starts from the saved table, reading only what changed. */
  start(): void {
    if (!this.pruned) {
      this.pruned = true;
      try {
        this.prune(); // what earlier sessions left, bounded before this one adds to it
      } catch {
        // storage that cannot be pruned now is pruned after a later step
      }
    }
    for (const shadow of this.shadows) {
      // A first scan that failed is taken again at the next step (what made it fail may be gone).
      if (shadow.failed !== undefined && !shadow.scanned) {
        shadow.failed = undefined;
        shadow.ready = undefined;
      }
      shadow.ready ??= this.rescan(shadow).then(
        () => void (shadow.scanned = true),
        (error: unknown) => void (shadow.failed = message(error)),
      );
    }
  }

  /** Resolves once every folder's first snapshot is taken (or failed). */
  async whenReady(): Promise<void> {
    this.start();
    await Promise.all(this.shadows.map((s) => s.ready));
  }

  /** Before a step that may change any file of the folders (a command, an agent, an MCP tool). */
  async beforeFolders(tool: string): Promise<StepStart> {
    if (this.options.waitForFirstScan) await this.whenReady();
    this.start();
    const pending = this.shadows.filter((s) => !s.scanned && !s.failed);
    if (pending.length > 0) return this.begin({ tool, untracked: 'the first snapshot of the workspace was still being taken', overlapped: false });
    const failed = this.shadows.find((s) => s.failed);
    if (failed) return this.begin({ tool, untracked: `the workspace could not be scanned (${failed.failed})`, overlapped: false });
    const trees = new Map<string, TreeState>();
    try {
      for (const shadow of this.shadows) trees.set(shadow.root, await this.rescan(shadow));
    } catch (error) {
      // The step still runs: untracked, and saying why (a scan must never stop a command).
      return this.begin({ tool, untracked: `the workspace could not be scanned before it (${message(error)})`, overlapped: false });
    }
    return this.begin({ tool, trees, overlapped: false });
  }

  /** Before a file tool's change of exactly `files` (canonical paths). */
  beforeFiles(tool: string, files: readonly string[]): StepStart {
    const paths = new Map<string, FileState | undefined>();
    for (const file of files) if (this.shadowOf(file)) paths.set(file, this.readOne(file));
    return this.begin({ tool, paths, overlapped: false });
  }

  /** After the step: what it changed, recorded. */
  async after(start: StepStart): Promise<Step> {
    this.running.delete(start);
    const id = randomUUID();
    const at = Date.now();
    const base = { id, tool: start.tool, at, ...(start.overlapped ? { overlapped: true } : {}) };
    if (start.untracked) return this.record({ ...base, changes: [], untracked: start.untracked });
    const changes: FileChange[] = [];
    try {
      if (start.trees) {
        for (const shadow of this.shadows) {
          const before = start.trees.get(shadow.root);
          if (before) changes.push(...diffTrees(shadow.root, before, await this.rescan(shadow)));
        }
      } else if (start.paths) {
        for (const [file, before] of start.paths) {
          const shadow = this.shadowOf(file)!;
          const rel = path.relative(shadow.root, file).split(path.sep).join('/');
          const change = diffOne(shadow.root, rel, before, this.readOne(file));
          if (change) changes.push(change);
        }
      }
    } catch (error) {
      return this.record({ ...base, changes, untracked: `the workspace could not be scanned after it (${message(error)})` });
    }
    return this.record({ ...base, changes });
  }

  /** Every step recorded in this session, oldest first. */
  list(): Step[] {
    return [...this.steps.values()];
  }

  step(id: string): Step | undefined {
    return this.steps.get(id);
  }

  /**
   * Steps of an earlier session (its saved record), so they can be reverted again. A record
   * whose paths are not plain paths inside its folder (`..`, absolute) is not taken: a
   * revert writes where a step's change names.
   */
  restore(steps: readonly Step[]): void {
    for (const step of steps) if (wellFormed(step)) this.steps.set(step.id, step);
  }

  /** A stored content (a diff's side); undefined when it was never kept or has been pruned. */
  content(change: FileChange, side: 'before' | 'after'): Buffer | undefined {
    const sha = change[side];
    const shadow = this.shadows.find((s) => s.root === change.root);
    if (!sha || !shadow?.store.has(sha)) return undefined;
    return shadow.store.read(sha);
  }

  /**
   * Puts a step's files back as they were before it (`paths`: only these, by the change's
   * path, or by its absolute path where several folders hold the same one). A file that is
   * no longer what the step left is a conflict, left as it is, unless `force` names it (the
   * person saw the three versions and chose).
   */
  async revert(stepId: string, options: { paths?: readonly string[]; force?: readonly string[] } = {}): Promise<RevertResult> {
    const step = this.steps.get(stepId);
    if (!step) throw new Error(`No step ${stepId} in this session.`);
    const restored: FileChange[] = [];
    const conflicts: Conflict[] = [];
    const lost: { change: FileChange; why: string }[] = [];
    for (const change of step.changes) {
      if (options.paths && !names(options.paths, change)) continue;
      const shadow = this.shadows.find((s) => s.root === change.root);
      if (!shadow) {
        lost.push({ change, why: 'its workspace folder is not open' });
        continue;
      }
      try {
        const outcome = await revertOne(shadow.store, change, names(options.force, change));
        if (outcome === 'restored') restored.push(change);
        else if ('why' in outcome) lost.push({ change, why: outcome.why });
        else conflicts.push({ change, ...outcome });
      } catch (error) {
        // One file that cannot be put back (a folder now in its place, a disk full) leaves the others to go on.
        lost.push({ change, why: error instanceof Error ? error.message : String(error) });
      }
    }
    return { restored, conflicts, lost };
  }

  /** Saves each folder's table: the next session reads only the files that changed since. */
  dispose(): void {
    clearTimeout(this.saveTimer);
    live.delete(this);
    for (const shadow of this.shadows) {
      try {
        fs.writeFileSync(path.join(shadow.dir, 'tree.json'), serializeTree(shadow.tree));
      } catch {
        // a cache only: the next session reads every file once more
      }
    }
  }

  /** Bounds the storage: the oldest steps (of every session) lose their contents first. */
  prune(graceMs?: number): { freedBytes: number; droppedSteps: number } {
    const index: StepIndex[] = this.shadows.map((s) => ({ dir: s.dir, store: s.store, pinned: this.pinned(s) }));
    return pruneStore(index, this.options.maxStoreBytes ?? DEFAULT_MAX_STORE, graceMs);
  }

  /** A folder's objects no prune may drop: what it holds now, and what each running step started from. */
  private pinned(shadow: Shadow): Set<string> {
    const pinned = new Set<string>();
    for (const file of shadow.tree.files.values()) pinned.add(file.sha);
    for (const start of this.running) {
      for (const file of start.trees?.get(shadow.root)?.files.values() ?? []) pinned.add(file.sha);
      for (const [abs, file] of start.paths ?? []) if (file && this.shadowOf(abs) === shadow) pinned.add(file.sha);
    }
    return pinned;
  }

  private begin(start: StepStart): StepStart {
    // Two steps at once (subagents): what each finds may be the other's too.
    if (this.running.size > 0) {
      start.overlapped = true;
      for (const other of this.running) other.overlapped = true;
    }
    this.running.add(start);
    return start;
  }

  private record(step: Step): Step {
    this.steps.set(step.id, step);
    for (const shadow of this.shadows) {
      const mine = step.changes.filter((c) => c.root === shadow.root);
      if (mine.length > 0) appendIndex(shadow.dir, step, mine);
    }
    if (step.changes.length > 0 && ++this.recorded % PRUNE_EVERY === 0) this.prune();
    this.saveSoon();
    return step;
  }

  /** Each folder's table saved a little after the last step (and when the process exits). */
  private saveSoon(): void {
    live.add(this);
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.dispose(), SAVE_AFTER_MS);
    this.saveTimer.unref?.();
  }

  /** The folder scanned again, after any scan of it still running. */
  private rescan(shadow: Shadow): Promise<TreeState> {
    const next = shadow.queue.then(async () => {
      shadow.tree = await scanTree(shadow.tree, { root: shadow.root, store: shadow.store, maxFileBytes: this.maxFileBytes });
      return shadow.tree;
    });
    shadow.queue = next.catch(() => undefined);
    return next;
  }

  private shadowOf(file: string): Shadow | undefined {
    return this.shadows.find((s) => file === s.root || file.startsWith(s.root.endsWith(path.sep) ? s.root : s.root + path.sep));
  }

  /** One file's state now, its content stored (undefined: it does not exist, or is not a regular file). */
  private readOne(file: string): FileState | undefined {
    const shadow = this.shadowOf(file)!;
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    return stat?.isFile() ? readFileState(file, stat.ino, shadow.store, this.maxFileBytes) : undefined;
  }
}

/** What changed between two trees of one folder: renames where a deleted file's content reappears. */
export function diffTrees(root: string, before: TreeState, after: TreeState): FileChange[] {
  const changes: FileChange[] = [];
  for (const [rel, was] of before.files) {
    const now = after.files.get(rel);
    const change = diffOne(root, rel, was, now);
    if (change) changes.push(change);
  }
  for (const [rel, now] of after.files) if (!before.files.has(rel)) changes.push(diffOne(root, rel, undefined, now)!);
  // A file deleted here and created there with the same content was moved.
  const created = changes.filter((c) => c.kind === 'created');
  const out: FileChange[] = [];
  const used = new Set<FileChange>();
  for (const change of changes) {
    if (change.kind !== 'deleted') continue;
    const moved = created.find((c) => !used.has(c) && c.after === change.before);
    if (moved) {
      used.add(moved);
      used.add(change);
      out.push({ ...moved, kind: 'renamed', from: change.path, before: change.before, ...(change.beforeMode !== undefined ? { beforeMode: change.beforeMode } : {}), ...(change.beforeOwner ? { beforeOwner: change.beforeOwner } : {}), restorable: change.restorable && moved.restorable });
    }
  }
  for (const change of changes) if (!used.has(change)) out.push(change);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function diffOne(root: string, rel: string, was: FileState | undefined, now: FileState | undefined): FileChange | undefined {
  if (!was && !now) return undefined;
  if (was && now && was.sha === now.sha && was.mode === now.mode) return undefined;
  const kind: ChangeKind = !was ? 'created' : !now ? 'deleted' : 'modified';
  return {
    root,
    path: rel,
    kind,
    ...(was ? { before: was.sha, beforeMode: was.mode & 0o7777 } : {}),
    ...(was?.uid !== undefined && was.gid !== undefined ? { beforeOwner: { uid: was.uid, gid: was.gid } } : {}),
    ...(now ? { after: now.sha, afterMode: now.mode & 0o7777 } : {}),
    restorable: (was?.kept ?? true) && (now?.kept ?? true),
  };
}

/** Whether `list` names the change: by its path in its folder, or by its absolute path. */
const names = (list: readonly string[] | undefined, change: FileChange): boolean => !!list && (list.includes(change.path) || list.includes(path.join(change.root, change.path)));

/** A path inside its folder, '/'-separated, with no way out of it. */
const inside = (rel: unknown): boolean => typeof rel === 'string' && rel !== '' && !rel.includes('\0') && !path.isAbsolute(rel) && path.posix.normalize(rel) === rel && rel !== '..' && !rel.startsWith('../');

/** A saved step as this class records them (read back from a session's file). */
function wellFormed(step: Step): boolean {
  if (typeof step?.id !== 'string' || typeof step.tool !== 'string' || typeof step.at !== 'number' || !Array.isArray(step.changes)) return false;
  return step.changes.every((c) => typeof c?.root === 'string' && path.isAbsolute(c.root) && inside(c.path) && (c.from === undefined || inside(c.from)) && ['created', 'modified', 'deleted', 'renamed'].includes(c.kind));
}

function loadTree(dir: string): TreeState {
  try {
    return deserializeTree(fs.readFileSync(path.join(dir, 'tree.json'), 'utf8'));
  } catch {
    return EMPTY_TREE;
  }
}

function appendIndex(dir: string, step: Step, changes: readonly FileChange[]): void {
  const ids = changes.flatMap((c) => [c.before, c.after]).filter((s): s is string => s !== undefined);
  fs.appendFileSync(path.join(dir, 'steps.jsonl'), `${JSON.stringify({ id: step.id, at: step.at, objects: ids })}\n`);
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
