// The bounds on a session's subagents (peon.subagents.*, user scope), each with the
// default declared once in settings.ts.
import { SETTINGS, type SettingValues } from '../settings';

export interface SubagentBounds {
  readonly maxDepth: number;
  readonly maxConcurrent: number;
  readonly maxTurns: number;
  readonly maxTokens: number;
  readonly maxSeconds: number;
  readonly sessionTokens: number;
}

const KEYS = ['maxDepth', 'maxConcurrent', 'maxTurns', 'maxTokens', 'maxSeconds', 'sessionTokens'] as const;

export function boundsOf(settings: SettingValues): SubagentBounds {
  const bound = (name: (typeof KEYS)[number]): number => {
    const key = `peon.subagents.${name}` as const;
    return settings[key] ?? SETTINGS[key].default;
  };
  return Object.fromEntries(KEYS.map((name) => [name, bound(name)])) as unknown as SubagentBounds;
}
