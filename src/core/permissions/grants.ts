// "Allow for this session" (DESIGN.md §5): exact tool + pattern pairs the person
// approved while this conversation runs: a command segment for bash, a path for a file
// tool. A plan approved "with its grants" adds patterns instead (file globs for write and
// edit, command patterns for bash). Listed and revocable in the panel; saved with the
// conversation, gone with it.
export interface Grant {
  readonly tool: string;
  readonly pattern: string;
  /** `plan`: a glob or command pattern a plan declared, matched rather than compared. */
  readonly origin?: 'approval' | 'plan';
  /** Shown only: the subagent whose own grant (its plan's) this is. */
  readonly agent?: string;
  /** Shown only: a command as it was written (quotes kept); `pattern` is its words, which the grant matches. */
  readonly text?: string;
}

/** The file tools a plan's file globs allow (deleting still asks). */
const PLAN_FILE_TOOLS = ['write', 'edit'];

export class SessionGrants {
  private readonly grants = new Map<string, Grant>();
  private readonly listeners = new Set<(grants: readonly Grant[]) => void>();
  /** Running subagents' own grants, by agent: shown and revocable with the session's. */
  private readonly children = new Map<SessionGrants, string>();

  private static key(tool: string, pattern: string): string {
    return `${tool}\u0000${pattern}`;
  }

  /** An exact grant: this segment, this path. */
  has(tool: string, pattern: string): boolean {
    const grant = this.grants.get(SessionGrants.key(tool, pattern));
    return grant !== undefined && grant.origin !== 'plan';
  }

  /** Whether a plan's pattern for `tool` matches, by the caller's matcher (a glob, a command pattern). */
  matchesPlan(tool: string, matches: (pattern: string) => boolean): Grant | undefined {
    for (const grant of this.grants.values()) if (grant.origin === 'plan' && grant.tool === tool && matches(grant.pattern)) return grant;
    return undefined;
  }

  /** `texts`: the same grants as written, when they differ (a command's quotes), for the panel's list. */
  add(tool: string, patterns: readonly string[], texts?: readonly string[]): void {
    const shown = texts?.length === patterns.length ? texts : undefined;
    for (const [i, pattern] of patterns.entries()) {
      const text = shown?.[i];
      this.grants.set(SessionGrants.key(tool, pattern), text !== undefined && text !== pattern ? { tool, pattern, text } : { tool, pattern });
    }
    this.changed();
  }

  /** A plan's declared files and commands, for the rest of its task. */
  addPlan(files: readonly string[], commands: readonly string[]): void {
    for (const tool of PLAN_FILE_TOOLS) for (const pattern of files) this.grants.set(SessionGrants.key(tool, pattern), { tool, pattern, origin: 'plan' });
    for (const pattern of commands) this.grants.set(SessionGrants.key('bash', pattern), { tool: 'bash', pattern, origin: 'plan' });
    this.changed();
  }

  /** Ends the last plan's grants (a new plan starts a new task). */
  clearPlan(): void {
    let changed = false;
    for (const [key, grant] of this.grants) if (grant.origin === 'plan') changed = this.grants.delete(key) || changed;
    if (changed) this.changed();
  }

  /** `agent`: a subagent's own grant (a plan it approved). */
  revoke(tool: string, pattern: string, agent?: string): void {
    if (agent !== undefined) {
      for (const [child, name] of this.children) if (name === agent) child.revoke(tool, pattern);
      return;
    }
    if (this.grants.delete(SessionGrants.key(tool, pattern))) this.changed();
  }

  /** This session's own grants (what is saved with it). */
  list(): Grant[] {
    return [...this.grants.values()];
  }

  /** What the panel lists: the session's grants, and each running subagent's own, tagged with its name. */
  shown(): Grant[] {
    return [...this.list(), ...[...this.children].flatMap(([child, agent]) => child.list().map((g) => ({ ...g, agent })))];
  }

  /** A subagent's own grants join what is shown, until it detaches (its task ended). */
  attach(child: SessionGrants, agent: string): () => void {
    this.children.set(child, agent);
    const off = child.onChange(() => this.changed());
    return () => {
      off();
      if (this.children.delete(child)) this.changed();
    };
  }

  /** Replaces every grant (a resumed conversation's). */
  restore(grants: readonly Grant[]): void {
    this.grants.clear();
    for (const g of grants) {
      const grant = g.origin === 'plan' ? { tool: g.tool, pattern: g.pattern, origin: 'plan' as const } : { tool: g.tool, pattern: g.pattern, ...(typeof g.text === 'string' && g.text.length <= 20_000 ? { text: g.text } : {}) };
      this.grants.set(SessionGrants.key(g.tool, g.pattern), grant);
    }
    this.changed();
  }

  /** Called with the whole list after every change (the panel shows it). */
  onChange(listener: (grants: readonly Grant[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    const list = this.list();
    for (const listener of this.listeners) listener(list);
  }
}

/**
 * A subagent's grants: what the person allowed for the session holds for it, and "Allow
 * for session" on its card is for the session; a plan it has approved is its own, for
 * its task only, and its new plan ends only its own plan's grants.
 */
export class ChildGrants extends SessionGrants {
  /** Its own grants leave the session's list (its task ended). */
  readonly detach: () => void;

  constructor(
    private readonly session: SessionGrants,
    agent: string,
  ) {
    super();
    this.detach = session.attach(this, agent);
  }

  override has(tool: string, pattern: string): boolean {
    return super.has(tool, pattern) || this.session.has(tool, pattern);
  }

  override matchesPlan(tool: string, matches: (pattern: string) => boolean): Grant | undefined {
    return super.matchesPlan(tool, matches) ?? this.session.matchesPlan(tool, matches);
  }

  override add(tool: string, patterns: readonly string[], texts?: readonly string[]): void {
    this.session.add(tool, patterns, texts);
  }
}
