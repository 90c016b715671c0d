import * as vscode from 'vscode';
import { SETTINGS, resolveSettings, type ResolvedSettings, type SettingKey } from '../core/settings';

/**
 * Reads every `peon.*` setting as separate user and workspace layers (`inspect`),
 * so core decides what a workspace may set; a user-scope-only value in a
 * workspace's settings never takes effect, whatever VS Code would merge.
 */
export function readSettings(): ResolvedSettings {
  const config = vscode.workspace.getConfiguration();
  const user: Record<string, unknown> = {};
  const workspace: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const inspected = config.inspect(key);
    if (inspected?.globalValue !== undefined) user[key] = inspected.globalValue;
    const local = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
    if (local !== undefined) workspace[key] = local;
  }
  return resolveSettings({ user, workspace });
}
