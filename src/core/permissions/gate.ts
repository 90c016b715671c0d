// The one permission gate (DESIGN.md §5) every tool call passes, whoever makes it: a
// tool's assessment, the rules and the session's grants in; allow / ask / deny out,
// with the rule or default that decided and, for commands, the segment that did.
import fs from 'node:fs';
import path from 'node:path';
import { analyzeCommand, RUNS_OTHERS } from '../shell/segments';
import type { Assessment } from '../tools/contract';
import type { ResolvedPath } from '../workspace/workspace';
import { commandForms, DESTRUCTIVE_NAMES, whyDestructive, whyNotWhitelisted } from './commandJudge';
import type { CommandJudge } from './judgeModel';
import type { SessionGrants } from './grants';
import { commandMatches, pathMatches, strictestMatch, type PatternRule } from './patterns';
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
   * What "allow for this session" adds when it differs from `grantable`: a command's
   * segments with the folder they run in (`npm test (in pkg)`), none when the line `cd`s.
   */
  readonly sessionGrants?: readonly string[];
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
  /** The workspace folders, for spotting commands that delete one of them. */
  readonly roots?: readonly string[];
  /** peon.permission.judge: a model weighs commands that ask only for not being on the list. */
  readonly judge?: CommandJudge;
}

const deny = (mode: PermissionMode, source: string, reasons: string[]): PermissionDecision => ({ decision: 'deny', mode, source, reasons, grantable: [] });

/** The decision for one call. */
export async function judge(input: GateInput): Promise<PermissionDecision> {
  const config = input.config ?? DEFAULT_PERMISSIONS;
  const { mode, source } = modeFor(input.tool, config);
  const summary = input.assessment.summary;
  if (summary.kind === 'command') return judgeCommand(input, summary.command, mode, source, config);
  return judgePaths(input, mode, source, config);
}

/** What about a path needs a person's eye, whatever the mode. */
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

function judgePaths(input: GateInput, mode: PermissionMode, source: string, config: PermissionConfig): PermissionDecision {
  const { assessment, tool } = input;
  const displays = assessment.paths.map((p) => p.display);
  const rules = config.failClosed ? [] : (config.patterns[tool] ?? []);
  const matched = displays.map((d) => strictestMatch(rules, (pattern) => pathMatches(pattern, d)));
  const denied = matched.find((m) => m?.mode === 'deny');
  if (mode === 'deny') return deny(mode, source, [source]);
  if (denied) return deny(denied.mode, denied.source, [denied.source]);
  const { risky, protectedPaths } = pathReasons(assessment);
  // Protected paths ask before any change, whatever allows it.
  if (protectedPaths.length > 0) return { decision: 'ask', mode, source, reasons: protectedPaths, grantable: [] };
  const grantable = displays;
  const granted = displays.length > 0 && displays.every((d) => input.grants?.has(tool, d));
  if (granted) return { decision: 'allow', mode, source: `allowed for this session: ${tool} ${displays.join(', ')}`, reasons: [], grantable };
  const asked = matched.find((m) => m?.mode === 'ask' || m?.mode === 'semi-ask' || m?.mode === 'semi-judge');
  if (asked) return { decision: 'ask', mode: asked.mode, source: asked.source, reasons: [asked.source], grantable };
  if (displays.length > 0 && matched.every((m) => m?.mode === 'allow')) return { decision: 'allow', mode: 'allow', source: matched[0]!.source, reasons: [], grantable };
  switch (mode) {
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

const segmentKey = (segment: { argv: readonly string[] | undefined; text: string }): string => (segment.argv ? segment.argv.join(' ') : segment.text.trim().replace(/\s+/g, ' '));

async function judgeCommand(input: GateInput, command: string, mode: PermissionMode, source: string, config: PermissionConfig): Promise<PermissionDecision> {
  if (mode === 'deny') return deny(mode, source, [source]);
  const analysis = await analyzeCommand(command);
  const rules = config.failClosed ? [] : (config.patterns[input.tool] ?? []);
  const denyRules = rules.filter((r) => r.mode === 'deny');
  const cwdPath = input.assessment.paths[0];
  // Every folder the line may run a command in: where it starts, and wherever it `cd`s.
  const cwds = [cwdPath?.canonical ?? process.cwd()];
  for (const segment of analysis.segments) {
    const target = segment.argv?.[0] === 'cd' && segment.argv.length === 2 ? segment.argv[1]! : undefined;
    if (target !== undefined && !target.startsWith('-')) cwds.push(...cwds.map((cwd) => path.resolve(cwd, target)));
  }
  const matches = analysis.segments.map((s) => strictestMatch(rules, (pattern) => commandMatches(pattern, segmentKey(s))));
  // A session grant holds for the folder it was given in: `npm test` elsewhere runs another script.
  const place = cwds.length === 1 ? (cwdPath?.display ?? '.') : undefined;
  const sessionKey = (key: string): string => (place === '.' ? key : `${key} (in ${place})`);
  const sessionGrantsOf = (keys: readonly string[]): string[] => (place === undefined ? [] : keys.map(sessionKey));

  // Deny wins over everything, segment by segment (also inside substitutions and `bash -c`),
  // matched against every form of the command (/usr/bin/curl, `command curl`, `git -C . push`),
  // ignoring case (CURL is curl on a case-insensitive disk).
  const formsOf = (segment: (typeof analysis.segments)[number]): string[] => (segment.argv ? commandForms(segment.argv) : [segmentKey(segment)]).map((f) => f.toLowerCase());
  const matchesAny = (rules: readonly PatternRule[], segment: (typeof analysis.segments)[number]) => strictestMatch(rules, (pattern) => formsOf(segment).some((form) => commandMatches(pattern.toLowerCase(), form)));
  for (const segment of analysis.segments) {
    const rule = matchesAny(denyRules, segment);
    if (rule) return deny('deny', rule.source, [`\`${segment.text}\` is denied by ${rule.source}`]);
  }

  // Destructive commands and what the parser cannot vouch for always ask.
  const always: string[] = [...analysis.issues.map((i) => `the command ${i}`)];
  for (const segment of analysis.segments) {
    const name = segment.argv || segment.name === undefined ? undefined : path.basename(segment.name);
    const unseen = name !== undefined && (DESTRUCTIVE_NAMES.has(name) || RUNS_OTHERS.has(name)) ? `what ${name} would do cannot be seen (its words are not literal)` : undefined;
    const why = segment.argv ? whyDestructive(segment.argv, input.roots ?? [], cwds) : unseen;
    if (why) always.push(`\`${segment.text}\`: ${why} (destructive commands always ask)`);
    // With deny rules in force, a command that runs others or cannot be read might be one of them.
    else if (segment.issues.length > 0 && denyRules.length > 0) always.push(`\`${segment.text}\` cannot be checked against the deny rules: ${segment.issues.join('; ')}`);
  }
  const grantable = always.length > 0 ? [] : analysis.segments.map(segmentKey);
  if (always.length > 0) {
    const segmentIssues = analysis.segments.filter((s) => s.issues.length > 0).map((s) => `\`${s.text}\` ${s.issues.join('; ')}`);
    return { decision: 'ask', mode, source, reasons: [...new Set([...always, ...segmentIssues])], grantable };
  }
  // Ask rules apply in every mode, on every form of the command.
  const askRules = rules.filter((r) => r.mode === 'ask' || r.mode === 'semi-ask' || r.mode === 'semi-judge');
  const asked = analysis.segments.map((segment) => [segment, matchesAny(askRules, segment)] as const).filter(([, rule]) => rule);
  if (mode === 'allow' && asked.length > 0) return { decision: 'ask', mode, source: asked[0]![1]!.source, reasons: asked.map(([segment, rule]) => `\`${segment.text}\` asks by ${rule!.source}`), grantable, sessionGrants: sessionGrantsOf(grantable) };
  if (mode === 'allow') return { decision: 'allow', mode, source, reasons: [], grantable };
  if (mode === 'ask') return { decision: 'ask', mode, source, reasons: [source], grantable, sessionGrants: sessionGrantsOf(grantable) };

  // semi-judge (and semi-ask): every segment must pass on its own; a relative path is
  // checked from every folder the line may be in.
  const check = (arg: string): string | undefined => {
    if (!input.resolve) return 'paths cannot be checked here';
    for (const cwd of cwds) {
      if (climbsOutOfLink(cwd, arg)) return `${arg} goes up (..) out of a symbolic link, which may lead anywhere`;
      let p: ResolvedPath;
      try {
        p = input.resolve(path.resolve(cwd, arg));
      } catch {
        return `${arg} is not a path Peon can check`;
      }
      if (!p.inside) return `${arg} is outside the workspace`;
      if (p.secretReasons.length > 0) return `${arg}: ${p.secretReasons[0]}`;
      if (p.protectedReason) return `${arg} is protected: ${p.protectedReason}`;
    }
    return undefined;
  };
  const reasons: string[] = [];
  /** Only the segments that asked are offered for the session (or always): not the read-only ones around them. */
  const asking: string[] = [];
  let judgeable = mode === 'semi-judge';
  let decidedBy = source;
  analysis.segments.forEach((segment, i) => {
    const match = matches[i];
    const label = `\`${segment.text}\``;
    const ask = (reason: string): void => {
      reasons.push(reason);
      asking.push(segmentKey(segment));
    };
    const askRule = matchesAny(askRules, segment);
    if (segment.issues.length > 0) {
      ask(`${label} ${segment.issues.join('; ')}`);
      judgeable = false;
    } else if (askRule) {
      ask(`${label} asks by ${askRule.source}`);
      decidedBy = askRule.source;
      judgeable = false;
    } else if (match?.mode === 'allow') {
      decidedBy = match.source;
    } else if (place !== undefined && input.grants?.has(input.tool, sessionKey(segmentKey(segment)))) {
      decidedBy = `allowed for this session: ${sessionKey(segmentKey(segment))}`;
    } else {
      const objection = segment.argv ? whyNotWhitelisted(segment.argv, check) : { why: 'its words are not all literal', judgeable: false };
      if (objection) {
        ask(`${label}: ${objection.why}`);
        judgeable &&= objection.judgeable;
      }
    }
  });
  const only = [...new Set(asking)];
  if (reasons.length === 0) return { decision: 'allow', mode, source: decidedBy, reasons: [], grantable: only, sessionGrants: sessionGrantsOf(only) };
  if (judgeable && input.judge) {
    const verdict = await input.judge(command);
    if (verdict === 'safe') return { decision: 'allow', mode, source: 'the judge model (peon.permission.judge) classified it as safe', reasons: [], grantable: only, sessionGrants: sessionGrantsOf(only) };
    reasons.push(verdict === 'unsafe' ? 'the judge model classified it as unsafe' : 'the judge model gave no clear answer');
  }
  return { decision: 'ask', mode, source, reasons, grantable: only, sessionGrants: sessionGrantsOf(only) };
}

/** Whether `arg`, taken from `cwd`, goes up (`..`) out of a symbolic link: the kernel follows the link first. */
function climbsOutOfLink(cwd: string, arg: string): boolean {
  const parts = arg.split('/');
  if (!parts.includes('..')) return false;
  let at = path.isAbsolute(arg) ? '/' : cwd;
  for (const [i, part] of parts.entries()) {
    if (part === '..') return false; // reached the first `..` with no link before it
    if (part === '' || part === '.') continue;
    at = path.join(at, part);
    try {
      if (fs.lstatSync(at).isSymbolicLink()) return parts.slice(i + 1).includes('..');
    } catch {
      return false;
    }
  }
  return false;
}
