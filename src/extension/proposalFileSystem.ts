// Peon's proposals as VS Code sees them in the diff editor: files in memory under a
// scheme of Peon's, at the file's own path (`peon-proposal://<approval id>/src/app.ts`),
// so the tab and the breadcrumb name the file, not Peon's storage. The authority is the
// approval the proposal belongs to. A proposal is writable: saving it keeps the person's
// version here, never in the real file (what approving writes is the pipeline's job).
// The empty left side of a new file's diff is served read-only from here too.
import * as vscode from 'vscode';

export const PROPOSAL_SCHEME = 'peon-proposal';

interface Entry {
  data: Uint8Array;
  readonly ctime: number;
  mtime: number;
  readonly readonly: boolean;
}

/**
 * Where a proposal is served: `display` is the path the tools show (workspace-relative,
 * `folder/…` in a multi-root workspace, absolute outside), `side` the proposal itself or
 * the empty original of a new file.
 */
export function proposalUri(id: string, display: string, side: 'proposal' | 'empty'): vscode.Uri {
  const absolute = /^([a-zA-Z]:)?[\\/]/.test(display);
  const path = absolute ? vscode.Uri.file(display).path : `/${display.split(/[\\/]/).filter(Boolean).join('/')}`;
  return vscode.Uri.from({ scheme: PROPOSAL_SCHEME, authority: id, path, query: side === 'empty' ? 'empty' : '' });
}

/** The approval a proposal's URI belongs to; undefined for any other URI. */
export function proposalIdOf(uri: unknown): string | undefined {
  return uri instanceof vscode.Uri && uri.scheme === PROPOSAL_SCHEME && uri.authority !== '' ? uri.authority : undefined;
}

export class ProposalFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, Entry>();
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  /** Puts a file in memory (replacing what was there). */
  put(uri: vscode.Uri, text: string, readonly = false): void {
    const now = Date.now();
    this.files.set(uri.toString(), { data: Buffer.from(text, 'utf8'), ctime: now, mtime: now, readonly });
  }

  remove(uri: vscode.Uri): void {
    this.files.delete(uri.toString());
  }

  /** What a file holds now (the last save); undefined when it is not here. */
  text(uri: vscode.Uri): string | undefined {
    const entry = this.files.get(uri.toString());
    return entry ? Buffer.from(entry.data).toString('utf8') : undefined;
  }

  get size(): number {
    return this.files.size;
  }

  watch(): vscode.Disposable {
    // Only Peon and the person's saves change these files; nothing to watch.
    return new vscode.Disposable(() => {});
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.files.get(uri.toString());
    if (entry) return { type: vscode.FileType.File, ctime: entry.ctime, mtime: entry.mtime, size: entry.data.byteLength, ...(entry.readonly ? { permissions: vscode.FilePermission.Readonly } : {}) };
    // The folders above a proposal (the breadcrumb's `src`) exist while it does.
    if (this.children(uri).length > 0) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const children = this.children(uri);
    if (children.length === 0) throw vscode.FileSystemError.FileNotFound(uri);
    return children;
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const entry = this.files.get(uri.toString());
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry.data;
  }

  /** A save of a proposal the person edited: kept here. Nothing new is created, nothing read-only changed. */
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const entry = this.files.get(uri.toString());
    if (!entry) throw vscode.FileSystemError.NoPermissions(`${uri.path}: only Peon's proposals can be saved here`);
    if (entry.readonly) throw vscode.FileSystemError.NoPermissions(uri);
    entry.data = new Uint8Array(content);
    entry.mtime = Date.now();
    this.changes.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  createDirectory(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  /** The entries directly under a folder of one proposal (the same authority). */
  private children(folder: vscode.Uri): [string, vscode.FileType][] {
    const prefix = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
    const found = new Map<string, vscode.FileType>();
    for (const key of this.files.keys()) {
      const uri = vscode.Uri.parse(key);
      if (uri.authority !== folder.authority || !uri.path.startsWith(prefix)) continue;
      const [name, ...rest] = uri.path.slice(prefix.length).split('/');
      if (name) found.set(name, rest.length > 0 ? vscode.FileType.Directory : vscode.FileType.File);
    }
    return [...found];
  }
}
