// A conversation's own state (DESIGN.md §1): its mode and what the person allowed for
// it. Saved with the session as one record whenever it changes, and restored on resume,
// so plan mode survives a reload and compaction (which only rewrites the history).
import { SessionGrants, type Grant } from '../permissions/grants';
import type { Mode, ModeControl } from '../tools/contract';
import { planCommandProblem, planGlobProblem } from '../tools/planGrants';

export interface SavedState {
  readonly mode: Mode;
  readonly grants: readonly Grant[];
}

/** A saved grant comes back only in a shape a person could have approved (a plan's pattern checked as when it was declared). */
function restorable(grant: Grant): boolean {
  if (typeof grant?.tool !== 'string' || typeof grant.pattern !== 'string' || grant.pattern.length > 20_000) return false;
  if (grant.origin !== 'plan') return true;
  if (grant.tool === 'bash') return planCommandProblem(grant.pattern) === undefined;
  return (grant.tool === 'write' || grant.tool === 'edit') && planGlobProblem(grant.pattern) === undefined;
}

export class ConversationState implements ModeControl {
  readonly grants: SessionGrants;
  private mode: Mode = 'normal';
  private readonly listeners = new Set<(state: SavedState) => void>();

  /**
   * `grants`: a subagent's, which read through to its session's. `inherited`: whether
   * the agent that started it (or one above) is in plan mode now: then so is it.
   */
  constructor(saved?: SavedState, grants?: SessionGrants, private readonly inherited?: () => boolean) {
    this.grants = grants ?? new SessionGrants();
    if (saved) this.restore(saved);
    this.grants.onChange(() => this.changed());
  }

  get current(): Mode {
    return this.mode === 'plan' || this.inherited?.() ? 'plan' : 'normal';
  }

  /** Entering plan mode starts a new task: the last plan's grants end. */
  enterPlan(): void {
    this.mode = 'plan';
    this.grants.clearPlan();
    this.changed();
  }

  exitPlan(): void {
    this.mode = 'normal';
    this.changed();
  }

  snapshot(): SavedState {
    return { mode: this.mode, grants: this.grants.list() };
  }

  restore(saved: SavedState): void {
    this.mode = saved.mode === 'plan' ? 'plan' : 'normal';
    this.grants.restore(Array.isArray(saved.grants) ? saved.grants.filter(restorable) : []);
    this.changed();
  }

  /** Called with the whole state after every change (the session saves it, the panel shows it). */
  onChange(listener: (state: SavedState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    const state = this.snapshot();
    for (const listener of this.listeners) listener(state);
  }
}
