// peon.permission.rules and peon.permission.default from their two layers (DESIGN.md §5):
// user scope sets modes; project scope may only tighten (add ask or deny, never allow).
// A rule that does not parse fails closed: every tool asks, and the warning says why.
import { PERMISSION_MODE_VALUES, SETTINGS, type SettingLayers } from '../settings';
import type { PermissionMode } from './gate';
import type { PatternRule } from './patterns';

export interface PermissionConfig {
  /** Tool -> mode, from the rules. */
  readonly rules: Readonly<Record<string, PermissionMode>>;
  /** Where each rule came from, for the card ("peon.permission.rules (workspace): write -> deny"). */
  readonly sources: Readonly<Record<string, string>>;
  /** Tool -> its pattern rules (command patterns for bash, path globs for file tools). */
  readonly patterns: Readonly<Record<string, readonly PatternRule[]>>;
  readonly defaultMode: PermissionMode;
  readonly defaultSource: string;
  /** Every tool asks: the rules were unusable. */
  readonly failClosed: boolean;
  readonly warnings: readonly string[];
}

const STRICTNESS: Readonly<Record<PermissionMode, number>> = { allow: 0, 'semi-ask': 1, 'semi-judge': 1, ask: 2, deny: 3 };
const RULES = 'peon.permission.rules';
const DEFAULT = 'peon.permission.default';

export const stricter = (a: PermissionMode, b: PermissionMode): PermissionMode => (STRICTNESS[b] > STRICTNESS[a] ? b : a);

export function permissionConfig(layers: SettingLayers): PermissionConfig {
  const warnings: string[] = [];
  const rules: Record<string, PermissionMode> = {};
  const sources: Record<string, string> = {};
  let failClosed = false;

  const read = (scope: 'user' | 'workspace'): Record<string, unknown> | undefined => {
    const raw = layers[scope][RULES];
    if (raw === undefined) return undefined;
    const parsed = SETTINGS[RULES].schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    failClosed = true;
    warnings.push(`${RULES} in ${scope} settings is not valid (${parsed.error.issues[0]?.message ?? 'invalid'}): every tool asks until it is fixed.`);
    return undefined;
  };

  const patterns: Record<string, PatternRule[]> = {};
  const addPattern = (tool: string, pattern: string, mode: PermissionMode, scope: 'user' | 'workspace'): void => {
    (patterns[tool] ??= []).push({ pattern, mode, source: `${RULES} (${scope}): ${tool} ${JSON.stringify(pattern)} -> ${mode}` });
  };
  for (const [tool, value] of Object.entries(read('user') ?? {})) {
    if (typeof value === 'string') {
      rules[tool] = value as PermissionMode;
      sources[tool] = `${RULES} (user): ${tool} -> ${value}`;
    } else {
      for (const [pattern, mode] of Object.entries(value as Record<string, PermissionMode>)) addPattern(tool, pattern, mode, 'user');
    }
  }
  for (const [tool, value] of Object.entries(read('workspace') ?? {})) {
    if (typeof value !== 'string') {
      for (const [pattern, mode] of Object.entries(value as Record<string, PermissionMode>)) {
        if (mode === 'ask' || mode === 'deny') addPattern(tool, pattern, mode, 'workspace');
        else warnings.push(`${RULES} in workspace settings may only add ask or deny; ${tool} ${JSON.stringify(pattern)} -> ${mode} is ignored.`);
      }
      continue;
    }
    const mode = value as PermissionMode;
    if (mode !== 'ask' && mode !== 'deny') {
      warnings.push(`${RULES} in workspace settings may only add ask or deny; its looser rule for ${tool} is ignored.`);
      continue;
    }
    const current = rules[tool];
    if (current === undefined || stricter(current, mode) === mode) {
      rules[tool] = mode;
      sources[tool] = `${RULES} (workspace): ${tool} -> ${mode}`;
    }
  }

  let defaultMode: PermissionMode = 'ask';
  let defaultSource = `${DEFAULT}: ask (built in)`;
  const mode = (raw: unknown): PermissionMode | undefined =>
    typeof raw === 'string' && (PERMISSION_MODE_VALUES as readonly string[]).includes(raw) ? (raw as PermissionMode) : undefined;
  for (const scope of ['user', 'workspace'] as const) {
    const raw = layers[scope][DEFAULT];
    if (raw === undefined) continue;
    const value = mode(raw);
    if (value === undefined) {
      warnings.push(`${DEFAULT} in ${scope} settings is not a mode (${PERMISSION_MODE_VALUES.join(', ')}); ignored.`);
    } else if (scope === 'user') {
      defaultMode = value;
      defaultSource = `${DEFAULT} (user): ${value}`;
    } else if (stricter(defaultMode, value) === value && value !== defaultMode) {
      defaultMode = value;
      defaultSource = `${DEFAULT} (workspace): ${value}`;
    } else if (value !== defaultMode) {
      warnings.push(`${DEFAULT} in workspace settings may only tighten; ${value} is ignored.`);
    }
  }
  return { rules, sources, patterns, defaultMode, defaultSource, failClosed, warnings };
}

/** No settings at all: the built-in defaults. */
export const DEFAULT_PERMISSIONS: PermissionConfig = permissionConfig({ user: {}, workspace: {} });

type RuleValue = PermissionMode | Record<string, PermissionMode>;

/**
 * Two workspace-scope values of a tightening setting (the .code-workspace file's and the
 * folder's) as one: both may only tighten, so both apply. Modes take the stricter; rule
 * sets are joined, the stricter winning on a shared tool or pattern, and a tool-wide mode
 * joined with patterns becomes the pattern `**`, which matches every command and path.
 */
export function joinTightening(key: string, a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const isMode = (v: unknown): v is PermissionMode => typeof v === 'string' && (PERMISSION_MODE_VALUES as readonly string[]).includes(v);
  if (key === DEFAULT) return isMode(a) && isMode(b) ? stricter(a, b) : isMode(a) ? a : b;
  if (key !== RULES || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return b;
  const joined: Record<string, RuleValue> = { ...(a as Record<string, RuleValue>) };
  for (const [tool, value] of Object.entries(b as Record<string, RuleValue>)) {
    const mine = joined[tool];
    if (mine === undefined) joined[tool] = value;
    else if (isMode(mine) && isMode(value)) joined[tool] = stricter(mine, value);
    else {
      const asPatterns = (v: RuleValue): Record<string, PermissionMode> => (isMode(v) ? { '**': v } : v);
      const patterns = { ...asPatterns(mine) };
      for (const [pattern, mode] of Object.entries(asPatterns(value))) patterns[pattern] = patterns[pattern] ? stricter(patterns[pattern], mode) : mode;
      joined[tool] = patterns;
    }
  }
  return joined;
}
