// The checkpoints' storage, bounded (DESIGN.md §10). Above the cap, first what no step
// and no folder needs any more goes (versions a scan kept that no step recorded: the
// person's edits between steps, a first scan's contents since changed); then, if the store
// is still too large, the oldest steps — of any session in this workspace — lose their
// contents, until it fits. What a folder holds now, and what a step still running started
// from, is never dropped: it is the next step's "before". A step whose contents were
// dropped still lists its files; reverting it says they are no longer kept.
import fs from 'node:fs';
import path from 'node:path';
import type { ObjectStore } from './objectStore';

export interface StepIndex {
  /** The folder's shadow: its steps.jsonl and object store. */
  readonly dir: string;
  readonly store: ObjectStore;
  /** Objects never dropped: what the folder holds now, and what running steps started from. */
  readonly pinned: ReadonlySet<string>;
}

/** An object written this recently is spared by the sweep: another window's step may be about to index it. */
export const SWEEP_GRACE_MS = 60_000;

interface IndexedStep {
  readonly id: string;
  readonly at: number;
  readonly objects: readonly string[];
}

export function pruneStore(shadows: readonly StepIndex[], maxBytes: number, graceMs = SWEEP_GRACE_MS): { freedBytes: number; droppedSteps: number } {
  const sizes = shadows.map((s) => s.store.size());
  let total = sizes.reduce((a, b) => a + b, 0);
  if (total <= maxBytes) return { freedBytes: 0, droppedSteps: 0 };
  const start = total;
  const all = shadows.flatMap((shadow) => readIndex(shadow.dir).map((step) => ({ shadow, step })));
  // What nothing refers to goes first: no step loses anything for it.
  const now = Date.now();
  for (const shadow of shadows) {
    const referenced = new Set(shadow.pinned);
    for (const entry of all) if (entry.shadow === shadow) for (const id of entry.step.objects) referenced.add(id);
    for (const id of shadow.store.list()) {
      if (referenced.has(id)) continue;
      const stat = fs.statSync(objectFile(shadow.store, id), { throwIfNoEntry: false });
      if (!stat || now - stat.mtimeMs < graceMs) continue;
      total -= stat.size;
      shadow.store.remove(id);
    }
  }
  all.sort((a, b) => a.step.at - b.step.at);
  let dropped = 0;
  const kept = new Set(all);
  for (const entry of all) {
    if (total <= maxBytes) break;
    kept.delete(entry);
    dropped++;
    const { shadow } = entry;
    const referenced = new Set(shadow.pinned);
    for (const other of kept) if (other.shadow === shadow) for (const id of other.step.objects) referenced.add(id);
    for (const id of entry.step.objects) {
      if (referenced.has(id) || !shadow.store.has(id)) continue;
      total -= fs.statSync(objectFile(shadow.store, id), { throwIfNoEntry: false })?.size ?? 0;
      shadow.store.remove(id);
    }
  }
  if (dropped > 0) {
    for (const shadow of shadows) {
      const lines = [...kept].filter((e) => e.shadow === shadow).map((e) => JSON.stringify(e.step));
      fs.writeFileSync(path.join(shadow.dir, 'steps.jsonl'), lines.length > 0 ? `${lines.join('\n')}\n` : '');
    }
  }
  return { freedBytes: start - total, droppedSteps: dropped };
}

function readIndex(dir: string): IndexedStep[] {
  let text = '';
  try {
    text = fs.readFileSync(path.join(dir, 'steps.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const out: IndexedStep[] = [];
  for (const line of text.split('\n')) {
    try {
      if (line.trim()) out.push(JSON.parse(line) as IndexedStep);
    } catch {
      // a torn last line (a killed process): skipped
    }
  }
  return out;
}

const objectFile = (store: ObjectStore, id: string): string => path.join(store.gitDir, 'objects', id.slice(0, 2), id.slice(2));
