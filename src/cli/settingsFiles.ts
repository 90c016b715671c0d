// The CLI's settings (DESIGN.md §8): `--config FILE` is user scope (JSON with the same
// `peon.*` keys as VS Code), the workspace's .vscode/settings.json (JSONC) is project
// scope, under the same rule as in VS Code: project scope may only tighten.
import fs from 'node:fs';
import path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { resolveSettings, type ResolvedSettings, type SettingLayers } from '../core/settings';
import { UsageError } from './args';

function readObject(file: string, jsonc: boolean): Record<string, unknown> {
  const text = fs.readFileSync(file, 'utf8');
  const errors: ParseError[] = [];
  const value: unknown = jsonc ? parse(text, errors, { allowTrailingComma: true }) : JSON.parse(text);
  if (errors.length > 0) throw new Error(`${file}: ${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${file} must hold a JSON object of settings.`);
  return value as Record<string, unknown>;
}

export interface LoadedSettings extends ResolvedSettings {
  /** The two layers as read, for settings combined by their own rule (permissions). */
  readonly layers: SettingLayers;
}

export function loadSettings(configFile: string | undefined, workspaceRoot: string): LoadedSettings {
  let user: Record<string, unknown> = {};
  if (configFile !== undefined) {
    try {
      user = readObject(configFile, false);
    } catch (error) {
      throw new UsageError(`--config ${configFile}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let workspace: Record<string, unknown> = {};
  const projectFile = path.join(workspaceRoot, '.vscode', 'settings.json');
  const warnings: string[] = [];
  if (fs.existsSync(projectFile)) {
    try {
      workspace = readObject(projectFile, true);
    } catch (error) {
      // A broken project file loosens nothing: it is ignored, visibly.
      warnings.push(`Ignored ${projectFile}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const resolved = resolveSettings({ user, workspace });
  return { values: resolved.values, warnings: [...warnings, ...resolved.warnings], layers: { user, workspace } };
}
