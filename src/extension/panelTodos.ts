// The todo list in the panel (DESIGN.md §4, §7): the conversation's list shown live —
// as the model writes it, and as anything else writes .peon/todos.json (a terminal's
// `peon`, another window) — and the person's ticks, renames and deletes written back.
import * as vscode from 'vscode';
import type { Conversation } from '../core/conversation/index';
import { UNREADABLE } from '../core/todos/formatTodos';
import type { Todo } from '../core/todos/todoStore';
import type { HostMessage, WebviewMessage } from '../shared/messages';

export class PanelTodos implements vscode.Disposable {
  private conversation: Conversation | undefined;
  private watcher: vscode.FileSystemWatcher | undefined;

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Shows this conversation's list from now on. */
  attach(conversation: Conversation): void {
    this.conversation = conversation;
    conversation.todos.onChange((todos) => {
      if (this.conversation === conversation) this.show(todos);
    });
    this.watcher?.dispose();
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) {
      this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.peon/todos.json'));
      const refresh = (): void => void this.refresh();
      this.watcher.onDidChange(refresh);
      this.watcher.onDidCreate(refresh);
      this.watcher.onDidDelete(refresh);
    }
    void this.refresh();
  }

  /** Reads the list again and shows it (a file that does not parse is said so, and left as it is). */
  async refresh(): Promise<void> {
    const conversation = this.conversation;
    if (!conversation) return;
    try {
      const { todos, unreadable } = await conversation.todos.list();
      this.show(todos, unreadable ? UNREADABLE : undefined);
    } catch (error) {
      this.show([], `The todo list could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The person ticked, renamed or deleted a todo; the model sees it on its next request. */
  async edit(message: Extract<WebviewMessage, { type: 'editTodo' }>): Promise<void> {
    if (!this.conversation) return;
    try {
      await this.conversation.todos.write(message.action === 'delete' ? { id: message.id, action: 'delete' } : { id: message.id, ...(message.status ? { status: message.status } : {}), ...(message.title ? { title: message.title } : {}) });
    } catch (error) {
      this.log.warn(`The todo ${message.id} was not changed: ${error instanceof Error ? error.message : String(error)}`);
      await this.refresh();
    }
  }

  dispose(): void {
    this.watcher?.dispose();
  }

  private show(todos: readonly Todo[], problem?: string): void {
    const items = todos.map((t) => ({ id: t.id, title: t.title, ...(t.description ? { description: t.description } : {}), status: t.status, priority: t.priority, dependsOn: [...t.dependsOn] }));
    this.post({ type: 'todos', todos: items, ...(problem ? { problem } : {}) });
  }
}
