// "Allow for this session" (DESIGN.md §5): exact tool + pattern pairs the person
// approved while this conversation runs: a command segment for bash, a path for a file
// tool. Listed and revocable in the panel; gone with the session.
export interface Grant {
  readonly tool: string;
  readonly pattern: string;
}

export class SessionGrants {
  private readonly grants = new Map<string, Grant>();
  private readonly listeners = new Set<(grants: readonly Grant[]) => void>();

  private static key(tool: string, pattern: string): string {
    return `${tool}\u0000${pattern}`;
  }

  has(tool: string, pattern: string): boolean {
    return this.grants.has(SessionGrants.key(tool, pattern));
  }

  add(tool: string, patterns: readonly string[]): void {
    for (const pattern of patterns) this.grants.set(SessionGrants.key(tool, pattern), { tool, pattern });
    this.changed();
  }

  revoke(tool: string, pattern: string): void {
    if (this.grants.delete(SessionGrants.key(tool, pattern))) this.changed();
  }

  list(): Grant[] {
    return [...this.grants.values()];
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
