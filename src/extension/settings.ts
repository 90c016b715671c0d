import * as vscode from 'vscode';
import { joinTightening } from '../core/permissions/rules';
import { SETTINGS, resolveSettings, type ResolvedSettings, type SettingKey, type SettingLayers, type SettingSpec } from '../core/settings';

/**
 * Reads every `peon.*` setting as separate user and workspace layers (`inspect`), so
 * core decides what a workspace may set. VS Code already drops machine-scoped keys from
 * workspace settings; core ignores them again, so no merge rule of VS Code's decides it.
 */
export function readSettings(): ResolvedSettings & { layers: SettingLayers } {
  // Scoped to the first folder, so folder-level values are seen too (the root folder decides).
  const config = vscode.workspace.getConfiguration(undefined, vscode.workspace.workspaceFolders?.[0]?.uri);
  const user: Record<string, unknown> = {};
  const workspace: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const inspected = config.inspect(key);
    if (inspected?.globalValue !== undefined) user[key] = inspected.globalValue;
    // The folder's value wins, as in VS Code; settings that may only tighten take both.
    const local = (SETTINGS[key] as SettingSpec).merge === 'tighten' ? joinTightening(key, inspected?.workspaceValue, inspected?.workspaceFolderValue) : (inspected?.workspaceFolderValue ?? inspected?.workspaceValue);
    if (local !== undefined) workspace[key] = local;
  }
  return { ...resolveSettings({ user, workspace }), layers: { user, workspace } };
}
