// A session's skills from its settings: the catalog found for its folders, home and
// trust (skillCatalog.ts), and whether new settings mean looking again.
import os from 'node:os';
import type { SettingValues } from '../settings';
import { SkillCatalog } from './skillCatalog';

const SKILL_KEYS = ['peon.skills.roots', 'peon.skills.crossTool', 'peon.skills.maxSkills', 'peon.skills.maxSkillBytes'] as const;

export function sessionSkills(settings: SettingValues, where: { readonly roots: readonly string[]; readonly home?: string; readonly trusted: boolean }): SkillCatalog {
  return SkillCatalog.discover({
    workspaceRoots: where.roots,
    home: where.home ?? os.homedir(),
    userRoots: settings['peon.skills.roots'] ?? [],
    crossTool: settings['peon.skills.crossTool'] ?? true,
    trusted: where.trusted,
    maxSkills: settings['peon.skills.maxSkills'] ?? 100,
    maxSkillBytes: settings['peon.skills.maxSkillBytes'] ?? 65_536,
  });
}

/** Whether a settings change touches what discovery depends on. */
export const skillSettingsChanged = (before: SettingValues, after: SettingValues): boolean => SKILL_KEYS.some((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
