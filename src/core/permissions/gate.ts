// The one permission gate (DESIGN.md §5) every tool call passes, whoever makes it: a
// tool's assessment, the rules and the session's grants in; allow / ask / deny out,
// with the rule or default that decided and, for commands, the segment that did.
import type { Assessment } from '../tools/contract';
import type { ResolvedPath } from '../workspace/workspace';
import { judgeCommand } from './commandGate';
import type { CommandJudge } from './judgeModel';
import type { SessionGrants } from './grants';
import { hostKey } from '../web/hostPolicy';
import { hostMatches, pathMatches, strictestMatch } from './patterns';
import { DEFAULT_PERMISSIONS, type PermissionConfig } from './rules';

export const PERMISSION_MODES = ['allow', 'ask', 'deny', 'semi-ask', 'semi-judge'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export interface PermissionDecision {
  readonly decision: 'allow' | 'ask' | 'deny';
  readonly mode: PermissionMode;
  /** Which rule or default produced the decision. */
  readonly source: string;
  /** Why this call asks (or is denied): shown on the card. */
  readonly reasons: readonly string[];
  /**
   * What "allow for this session" and "always allow" would cover: the command's
   * segments, or the paths. Empty when the call cannot be granted (a destructive or
   * unparseable command, a protected path).
   */
  readonly grantable: readonly string[];
  /**
   * What "allow for this session" adds: the paths, or a command's segments with the
   * folder they run in (`npm test (in pkg)`), none when the line `cd`s.
   */
  readonly sessionGrants: readonly string[];
  /** A command's `sessionGrants` as written (quotes kept), for people to read; the grants themselves match by words. */
  readonly sessionText?: readonly string[];
  /**
   * Why the call destroys data (a destructive command, or one that deletes files): its
   * card says so first, and never offers a permanent rule for it.
   */
  readonly destructive?: readonly string[];
}

/**
 * Built-in defaults (DESIGN.md §5, Pegg's table): file tools semi-ask, bash semi-judge;
 * the tools of later issues are listed already, so each arrives with its default.
 * Delegated agents and MCP tools have none: they take peon.permission.default (ask).
 */
const DEFAULT_MODES: Readonly<Record<string, PermissionMode>> = {
  read: 'semi-ask',
  write: 'semi-ask',
  edit: 'semi-ask',
  delete: 'semi-ask',
  list: 'semi-ask',
  glob: 'semi-ask',
  grep: 'semi-ask',
  bash: 'semi-judge',
  todoread: 'allow',
  todowrite: 'allow',
  task: 'allow',
  taskstatus: 'allow',
  webfetch: 'allow',
  websearch: 'allow',
  loadskill: 'allow',
  // Peon's read_skill reads only skills from the session's map, as loadskill does: the same default.
  read_skill: 'allow',
  'mem-search': 'semi-ask',
  'mem-read': 'semi-ask',
  enterplanmode: 'ask',
  exitplanmode: 'ask',
  // Asking the user a question is itself the question: never gated.
  askuserquestion: 'allow',
};

/** The mode for a tool: a rule, else its built-in default, else peon.permission.default. */
export function modeFor(tool: string, config: PermissionConfig = DEFAULT_PERMISSIONS): { mode: PermissionMode; source: string } {
  if (config.failClosed) return { mode: 'ask', source: 'peon.permission.rules is not valid: every tool asks' };
  const rule = config.rules[tool];
  if (rule) return { mode: rule, source: config.sources[tool] ?? `peon.permission.rules: ${tool} -> ${rule}` };
  const mode = DEFAULT_MODES[tool];
  return mode ? { mode, source: `default for ${tool}: ${mode}` } : { mode: config.defaultMode, source: config.defaultSource };
}

export interface GateInput {
  readonly tool: string;
  readonly assessment: Assessment;
  readonly config?: PermissionConfig;
  readonly grants?: SessionGrants;
  /** Resolves a path argument of a command the way the tools would (workspace-relative or absolute). */
  readonly resolve?: (input: string) => ResolvedPath;
  /** The same for a name that is itself removed or replaced (`rm link` removes the link, not its target). */
  readonly resolveLink?: (input: string) => ResolvedPath;
  /** The environment commands run with (PATH, and what the gate's own git sees). */
  readonly env?: NodeJS.ProcessEnv;
  /** The workspace folders, for spotting commands that delete one of them. */
  readonly roots?: readonly string[];
  /** peon.permission.judge: a model weighs commands that ask only for not being on the list. */
  readonly judge?: CommandJudge;
}

export const deny = (mode: PermissionMode, source: string, reasons: string[]): PermissionDecision => ({ decision: 'deny', mode, source, reasons, grantable: [], sessionGrants: [] });

/** The decision for one call. */
export async function judge(input: GateInput): Promise<PermissionDecision> {
  const config = input.config ?? DEFAULT_PERMISSIONS;
  const { mode, source } = modeFor(input.tool, config);
  const summary = input.assessment.summary;
  // A question to the person is itself the person's say: never gated, whatever the rules.
  if (summary.kind === 'question') return { decision: 'allow', mode: 'allow', source: 'questions to you are never gated', reasons: [], grantable: [], sessionGrants: [] };
  if (summary.kind === 'command') {
    const decision = await judgeCommand(input, summary.command, mode, source, config);
    // A command outside the sandbox asks every time: no rule, grant or whitelist approves it for the person.
    if (summary.sandbox?.state !== 'unsandboxed' || decision.decision === 'deny') return decision;
    return { decision: 'ask', mode, source: 'a command outside the sandbox always asks', reasons: [summary.sandbox.text, ...decision.reasons], grantable: [], sessionGrants: [], ...(decision.destructive ? { destructive: decision.destructive } : {}) };
  }
  const d = judgePaths(input, mode, source, config);
  // A path is granted as it is. Listed out: `{ ...d, sessionGrants }` (a spread, then a new key) costs Node 20 ~0.6 µs a call.
  return { decision: d.decision, mode: d.mode, source: d.source, reasons: d.reasons, grantable: d.grantable, sessionGrants: d.grantable };
}

/** What about a path needs a person's eye, whatever the mode. */
function pathReasons(assessment: Assessment): { risky: string[]; protectedPaths: string[] } {
  const risky: string[] = [];
  const protectedPaths: string[] = [];
  for (const p of assessment.paths) {
    if (!p.inside) risky.push(`${p.display} is outside the workspace`);
    for (const reason of p.secretReasons) risky.push(`${p.display}: ${reason}`);
    if (p.ignored) risky.push(`${p.display} is ignored (.gitignore or .peonignore)`);
    if (p.hardLinks > 1 && !p.asLink && !assessment.writes) risky.push(`${p.display} has ${p.hardLinks} hard links, and another may be outside the workspace`);
    if (p.protectedReason && assessment.writes) protectedPaths.push(`${p.display} is protected: ${p.protectedReason}`);
    else if (p.protectedReason) risky.push(`${p.display} is protected: ${p.protectedReason}`);
  }
  return { risky, protectedPaths };
}

function judgePaths(input: GateInput, mode: PermissionMode, source: string, config: PermissionConfig): Omit<PermissionDecision, 'sessionGrants'> {
  const { assessment, tool } = input;
  // A request leaving the machine is judged, granted and matched by its host (`docs.python.org`, `*.python.org`).
  const network = assessment.summary.kind === 'network';
  // A call that names no path and no host (an MCP tool, a todo) has no pattern to match or grant: its mode decides.
  if (!network && assessment.paths.length === 0) return byMode(assessment, mode, source, [], []);
  const displays = network ? [hostKey(assessment.summary.host)] : assessment.paths.map((p) => p.display);
  const matches = network ? hostMatches : pathMatches;
  const rules = config.failClosed ? [] : (config.patterns[tool] ?? []);
  const matched = displays.map((d) => strictestMatch(rules, (pattern) => matches(pattern, d)));
  const denied = matched.find((m) => m?.mode === 'deny');
  if (mode === 'deny') return deny(mode, source, [source]);
  if (denied) return deny(denied.mode, denied.source, [denied.source]);
  const { risky, protectedPaths } = pathReasons(assessment);
  // Protected paths ask before any change, whatever allows it.
  if (protectedPaths.length > 0) return { decision: 'ask', mode, source, reasons: protectedPaths, grantable: [] };
  // So does a request that would carry data out (a credential, a long encoded run), each time: it is never granted.
  const leaving = assessment.summary.kind === 'network' ? (assessment.summary.concerns ?? []) : [];
  if (leaving.length > 0) return { decision: 'ask', mode, source: 'what the request would carry out', reasons: leaving, grantable: [] };
  const grantable = displays;
  const granted = displays.length > 0 && displays.every((d) => input.grants?.has(tool, d));
  if (granted) return { decision: 'allow', mode, source: `allowed for this session: ${tool} ${displays.join(', ')}`, reasons: [], grantable };
  // A plan's globs cover ordinary workspace files only: never an outside, secret-like or ignored one.
  const ordinary = assessment.paths.length > 0 && assessment.paths.every((p) => p.inside && p.secretReasons.length === 0 && !p.ignored && p.hardLinks <= 1);
  const planned = ordinary ? displays.map((d) => input.grants?.matchesPlan(tool, (pattern) => pathMatches(pattern, d))) : [];
  if (planned.length > 0 && planned.every((g) => g)) return { decision: 'allow', mode, source: `allowed by the approved plan: ${tool} ${[...new Set(planned.map((g) => g!.pattern))].join(', ')}`, reasons: [], grantable };
  const asked = matched.find((m) => m?.mode === 'ask' || m?.mode === 'semi-ask' || m?.mode === 'semi-judge');
  if (asked) return { decision: 'ask', mode: asked.mode, source: asked.source, reasons: [asked.source], grantable };
  if (displays.length > 0 && matched.every((m) => m?.mode === 'allow')) return { decision: 'allow', mode: 'allow', source: matched[0]!.source, reasons: [], grantable };
  return byMode(assessment, mode, source, risky, grantable);
}

/** What the mode alone decides, once no rule, grant or plan did. */
function byMode(assessment: Assessment, mode: PermissionMode, source: string, risky: readonly string[], grantable: readonly string[]): Omit<PermissionDecision, 'sessionGrants'> {
  switch (mode) {
    case 'deny':
      return deny(mode, source, [source]);
    case 'allow':
      return { decision: 'allow', mode, source, reasons: [], grantable };
    case 'ask':
      return { decision: 'ask', mode, source, reasons: [source], grantable };
    case 'semi-ask':
    case 'semi-judge': {
      const reasons = [...(assessment.writes ? ['it changes files'] : []), ...risky];
      if (assessment.risk !== 'read_only' && !assessment.writes && reasons.length === 0) reasons.push(`its risk is ${assessment.risk}`);
      return { decision: reasons.length === 0 ? 'allow' : 'ask', mode, source, reasons, grantable };
    }
  }
}
