// The checkpoints' storage, bounded (DESIGN.md §10): above the cap, the oldest steps —
// of any session in this workspace — lose their contents first, until the store fits.
// What a folder holds now is never dropped: it is the next step's "before". A step whose
// contents were dropped still lists its files; reverting it says they are no longer kept.
import fs from 'node:fs';
import path from 'node:path';
import type { ObjectStore } from './objectStore';
import type { TreeState } from './treeState';

export interface StepIndex {
  /** The folder's shadow: its steps.jsonl and object store. */
  readonly dir: string;
  readonly store: ObjectStore;
  /** What the folder holds now. */
  readonly live: TreeState;
}

interface IndexedStep {
  readonly id: string;
  readonly at: number;
  readonly objects: readonly string[];
}

export function pruneStore(shadows: readonly StepIndex[], maxBytes: number): { freedBytes: number; droppedSteps: number } {
  const sizes = shadows.map((s) => s.store.size());
  let total = sizes.reduce((a, b) => a + b, 0);
  if (total <= maxBytes) return { freedBytes: 0, droppedSteps: 0 };
  const all = shadows.flatMap((shadow) => readIndex(shadow.dir).map((step) => ({ shadow, step })));
  all.sort((a, b) => a.step.at - b.step.at);
  const start = total;
  let dropped = 0;
  const kept = new Set(all);
  for (const entry of all) {
    if (total <= maxBytes) break;
    kept.delete(entry);
    dropped++;
    const { shadow } = entry;
    const referenced = new Set<string>([...shadow.live.files.values()].map((f) => f.sha));
    for (const other of kept) if (other.shadow === shadow) for (const id of other.step.objects) referenced.add(id);
    for (const id of entry.step.objects) {
      if (referenced.has(id) || !shadow.store.has(id)) continue;
      total -= objectSize(shadow.store, id);
      shadow.store.remove(id);
    }
  }
  for (const shadow of shadows) {
    const lines = [...kept].filter((e) => e.shadow === shadow).map((e) => JSON.stringify(e.step));
    fs.writeFileSync(path.join(shadow.dir, 'steps.jsonl'), lines.length > 0 ? `${lines.join('\n')}\n` : '');
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

function objectSize(store: ObjectStore, id: string): number {
  return fs.statSync(path.join(store.gitDir, 'objects', id.slice(0, 2), id.slice(2)), { throwIfNoEntry: false })?.size ?? 0;
}
