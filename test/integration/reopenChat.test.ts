import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { SessionStore } from '../../src/core/sessions/sessionStore';
import { ChatViewProvider } from '../../src/extension/chatViewProvider';
import { peonExtension } from './peon';

// A window reload reopens the chat the panel showed (its id kept beside the sessions).
// One that cannot be read any more leaves a new chat that says so, not a blank panel: the
// page draws nothing until the host answers.
function memento(): vscode.Memento {
  const values = new Map<string, unknown>();
  return { keys: () => [...values.keys()], get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback), update: async (key: string, value: unknown) => void values.set(key, value) } as vscode.Memento;
}

function panelOver(storage: string): ChatViewProvider {
  const secrets = { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: new vscode.EventEmitter<vscode.SecretStorageChangeEvent>().event } as unknown as vscode.SecretStorage;
  const log = vscode.window.createOutputChannel('Peon reopen test', { log: true });
  const extension = peonExtension();
  return new ChatViewProvider(extension.extensionUri, log, vscode.Uri.file(storage), secrets, { globalState: Object.assign(memento(), { setKeysForSync: () => {} }), workspaceState: memento(), secrets, extension });
}

suite('reopening the chat after a reload', () => {
  test('the chat shown is reopened by the next panel; one that cannot be read leaves a new chat saying why', () => {
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-reopen-'));
    const store = new SessionStore(path.join(storage, 'sessions'));
    const id = store.create('Add a section on caching.').id;
    store.append(id, { type: 'view', message: { type: 'append', entry: { kind: 'user', id: 'e1', text: 'Add a section on caching.' } } });
    const first = panelOver(storage);
    first.resume(id);
    first.dispose();
    assert.equal(store.shown(), id);

    const next = panelOver(storage);
    next.resume(store.shown()!);
    assert.deepEqual(next.entries.map((e) => (e.kind === 'user' ? e.text : e.kind)), ['Add a section on caching.']);
    next.dispose();

    // Its file cannot be read (a folder now): a new chat, and a notice that says so.
    fs.rmSync(path.join(storage, 'sessions', `${id}.jsonl`));
    fs.mkdirSync(path.join(storage, 'sessions', `${id}.jsonl`));
    const broken = panelOver(storage);
    broken.resume(id);
    const notice = broken.entries.find((e) => e.kind === 'notice');
    assert.ok(notice?.kind === 'notice' && notice.level === 'error' && /^The saved chat could not be reopened: EISDIR/.test(notice.text), JSON.stringify(broken.entries));
    assert.equal(broken.entries.length, 1);
    assert.equal(store.shown(), undefined);
    broken.dispose();
    fs.rmSync(storage, { recursive: true, force: true });
  });
});
