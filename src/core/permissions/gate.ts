// The first permission gate (DESIGN.md §5), good enough for the file tools: it turns
// a tool's assessment into allow / ask / deny and says why. The full middleware
// (rules, shell segments, session grants) replaces the mode lookup, not this shape.
import type { Assessment } from '../tools/contract';
import { DEFAULT_PERMISSIONS, type PermissionConfig } from './rules';

export const PERMISSION_MODES = ['allow', 'ask', 'deny', 'semi-ask', 'semi-judge'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export interface PermissionDecision {
  readonly decision: 'allow' | 'ask' | 'deny';
  readonly mode: PermissionMode;
  /** Which rule or default produced the mode. */
  readonly source: string;
  /** Why this call asks (or is denied): shown on the card. */
  readonly reasons: readonly string[];
}

/** Built-in defaults (Pegg's table): file tools semi-ask. */
const DEFAULT_MODES: Readonly<Record<string, PermissionMode>> = {
  read: 'semi-ask',
  write: 'semi-ask',
  edit: 'semi-ask',
  delete: 'semi-ask',
  list: 'semi-ask',
  glob: 'semi-ask',
  grep: 'semi-ask',
  bash: 'semi-judge',
};

/** The mode for a tool: a rule, else its built-in default, else peon.permission.default. */
export function modeFor(tool: string, config: PermissionConfig = DEFAULT_PERMISSIONS): { mode: PermissionMode; source: string } {
  if (config.failClosed) return { mode: 'ask', source: 'peon.permission.rules is not valid: every tool asks' };
  const rule = config.rules[tool];
  if (rule) return { mode: rule, source: config.sources[tool] ?? `peon.permission.rules: ${tool} -> ${rule}` };
  const mode = DEFAULT_MODES[tool];
  return mode ? { mode, source: `default for ${tool}: ${mode}` } : { mode: config.defaultMode, source: config.defaultSource };
}

/** What about the paths of a call needs a person's eye, whatever the mode. */
function pathReasons(assessment: Assessment): { risky: string[]; protectedPaths: string[] } {
  const risky: string[] = [];
  const protectedPaths: string[] = [];
  for (const p of assessment.paths) {
    if (!p.inside) risky.push(`${p.display} is outside the workspace`);
    for (const reason of p.secretReasons) risky.push(`${p.display}: ${reason}`);
    if (p.ignored) risky.push(`${p.display} is ignored (.gitignore or .peonignore)`);
    if (p.protectedReason && assessment.writes) protectedPaths.push(`${p.display} is protected: ${p.protectedReason}`);
    else if (p.protectedReason) risky.push(`${p.display} is protected: ${p.protectedReason}`);
  }
  return { risky, protectedPaths };
}

export function decide(assessment: Assessment, mode: PermissionMode, source: string): PermissionDecision {
  const { risky, protectedPaths } = pathReasons(assessment);
  // Protected paths ask before any change, in every mode but deny.
  if (mode === 'deny') return { decision: 'deny', mode, source, reasons: [`${source}`] };
  if (protectedPaths.length > 0) return { decision: 'ask', mode, source, reasons: protectedPaths };
  switch (mode) {
    case 'allow':
      return { decision: 'allow', mode, source, reasons: [] };
    case 'ask':
      return { decision: 'ask', mode, source, reasons: [`${source}`] };
    case 'semi-ask':
    case 'semi-judge': {
      const reasons = [...(assessment.writes ? ['it changes files'] : []), ...risky];
      if (assessment.risk !== 'read_only' && !assessment.writes && reasons.length === 0) reasons.push(`its risk is ${assessment.risk}`);
      return reasons.length === 0 ? { decision: 'allow', mode, source, reasons } : { decision: 'ask', mode, source, reasons };
    }
  }
}
