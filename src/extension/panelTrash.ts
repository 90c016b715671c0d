// The trash in the panel: the files this conversation deleted (the delete tool keeps a
// copy; its result carries the trash id, saved with the session), listed with Restore.
// The trash itself is the workspace's; only ids this conversation recorded are listed or
// restored. Restoring never overwrites: when a file exists again at that path, the person
// is asked whether to restore the copy beside it under a free name ("a (restored).js"),
// so neither version is lost and the two can be compared.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { LoopEvent } from '../core/agent/loop';
import type { SessionRecord } from '../core/sessions/sessionStore';
import { freeNameBeside, Trash, type TrashEntry } from '../core/workspace/trash';
import type { Handlers, HostMessage, TrashItem, WebviewMessage } from '../shared/messages';
import { TrashId } from '../shared/messages';

export interface TrashFace {
  /** A path as the panel shows it: relative to the workspace where it is in one. */
  shown(file: string): string;
  /** Asks whether to restore beside a file that exists again (a modal); true: restore at `beside`. */
  confirmBeside(original: string, beside: string): Promise<boolean>;
  warn(text: string): void;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const exists = (file: string): Promise<boolean> => fs.lstat(file).then(() => true, () => false);

export class PanelTrash {
  private readonly trash: Trash;
  /** This conversation's deletions, oldest first. */
  private ids: string[] = [];

  constructor(
    trashDir: string,
    private readonly post: (message: HostMessage) => void,
    private readonly record: (record: SessionRecord) => void,
    private readonly face: TrashFace,
  ) {
    this.trash = new Trash(trashDir);
  }

  /** The webview's messages this answers. */
  readonly handlers: Pick<Handlers<WebviewMessage>, 'listTrash' | 'restoreTrash'> = {
    listTrash: () => void this.list(),
    restoreTrash: (message) => void this.restore(message.id),
  };

  /** A resumed chat's deletions (none: a new chat). */
  restoreIds(ids: readonly string[] = []): void {
    this.ids = [...new Set(ids)];
  }

  /** A loop event of this conversation (its subagents' too): a file deleted joins the list. */
  onEvent(event: LoopEvent): void {
    if (event.type !== 'tool_result' || !event.outcome.ok || event.call.name !== 'delete' || !('data' in event.outcome)) return;
    const id = TrashId.safeParse(event.outcome.data.trashId);
    if (!id.success || this.ids.includes(id.data)) return;
    this.ids.push(id.data);
    this.record({ type: 'trashed', trashId: id.data });
    void this.list();
  }

  /** The deleted files still in the trash, newest first. */
  async list(note?: string): Promise<void> {
    const entries = (await Promise.all(this.ids.map((id) => this.trash.get(id)))).filter((e): e is TrashEntry => e !== undefined);
    this.post({ type: 'trash', entries: entries.reverse().slice(0, 1000).map((e) => this.itemOf(e)), ...(note ? { note } : {}) });
  }

  async restore(id: string): Promise<void> {
    const entry = this.ids.includes(id) ? await this.trash.get(id) : undefined;
    if (!entry) return this.list();
    const original = entry.originalPath;
    try {
      let to: string | undefined;
      if (await exists(original)) {
        const beside = await freeNameBeside(original);
        if (!(await this.face.confirmBeside(original, beside))) return this.list();
        to = beside;
      }
      await this.trash.restore(id, to);
      await this.list(to ? `Restored ${this.face.shown(original)} as ${path.basename(to)}: a file exists at its place again.` : `Restored ${this.face.shown(original)}.`);
    } catch (error) {
      this.face.warn(`A deleted file was not restored: ${message(error)}`);
      await this.list(`Not restored: ${message(error)}`);
    }
  }

  private itemOf(entry: TrashEntry): TrashItem {
    return { id: entry.id, path: this.face.shown(entry.originalPath).slice(0, 4096), size: entry.size, deletedAt: entry.deletedAt, link: entry.linkTarget !== undefined };
  }
}
