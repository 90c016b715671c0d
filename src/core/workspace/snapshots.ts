/** What a session last saw of a file (by read or write): `edit` and `write` refuse stale input. */
export interface Snapshot {
  readonly sha256: string;
  readonly size: number;
}

export class FileSnapshots {
  private readonly byPath = new Map<string, Snapshot>();

  record(canonicalPath: string, snapshot: Snapshot): void {
    this.byPath.set(canonicalPath, snapshot);
  }

  get(canonicalPath: string): Snapshot | undefined {
    return this.byPath.get(canonicalPath);
  }

  forget(canonicalPath: string): void {
    this.byPath.delete(canonicalPath);
  }
}
