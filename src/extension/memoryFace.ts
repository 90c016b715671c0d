// VS Code's side of the panel's memory (panelMemory.ts): an entry's file shown in the
// editor beside the chat, and a modal that asks before one is deleted.
import * as vscode from 'vscode';
import type { MemoryEntry } from '../core/memory/memoryEntry';
import { visibleText } from '../shared/hiddenText';

export async function showMemoryFile(file: string): Promise<void> {
  await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
}

export async function confirmMemoryDelete(entry: MemoryEntry): Promise<boolean> {
  const answer = await vscode.window.showWarningMessage(
    `Delete the memory entry ${entry.id} ("${visibleText(entry.title)}")?`,
    { modal: true, detail: `Its file ${entry.file} is removed, and Peon will no longer find it with mem-search.` },
    'Delete',
  );
  return answer === 'Delete';
}

export async function offerMemoryUndo(entry: MemoryEntry): Promise<boolean> {
  const answer = await vscode.window.showInformationMessage(`Deleted the memory entry ${entry.id} ("${visibleText(entry.title)}").`, 'Undo');
  return answer === 'Undo';
}
