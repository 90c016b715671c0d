// The bash side of the permission gate (DESIGN.md §5): a command split into every
// segment it runs (src/core/shell), each judged on its own against deny, ask and allow
// rules, the destructive list, session grants, the read-only list and its path checks,
// and, when it is on, the judge model.
import fs from 'node:fs';
import path from 'node:path';
import { RUNNERS, unwrap } from '../shell/commandWords';
import { analyzeCommand, RUNS_OTHERS, type ShellSegment } from '../shell/segments';
import { commandForms, isVersionQuery, whyNotWhitelisted } from './commandJudge';
import { isLong } from './commandOptions';
import { commandPaths, lineFolders, type CommandPaths } from './commandPaths';
import { DESTRUCTIVE_NAMES, whyDeletes, whyDestructive, type ChangeCheck } from './destructive';
import { deny, type GateInput, type PermissionDecision, type PermissionMode } from './gate';
import { whyGitReadAsks } from './gitRead';
import { commandMatches, strictestMatch, type PatternRule } from './patterns';
import type { PermissionConfig } from './rules';

const segmentKey = (segment: { argv: readonly string[] | undefined; text: string }): string => (segment.argv ? segment.argv.join(' ') : segment.text.trim().replace(/\s+/g, ' '));

export async function judgeCommand(input: GateInput, command: string, mode: PermissionMode, source: string, config: PermissionConfig): Promise<PermissionDecision> {
  if (mode === 'deny') return deny(mode, source, [source]);
  const analysis = await analyzeCommand(command);
  const rules = config.failClosed ? [] : (config.patterns[input.tool] ?? []);
  const denyRules = rules.filter((r) => r.mode === 'deny');
  const cwdPath = input.assessment.paths[0];
  const folders = lineFolders(analysis.segments, cwdPath?.canonical ?? process.cwd(), input.env ?? process.env);
  const { cwds } = folders;
  const paths = commandPaths(input, folders);
  const matches = analysis.segments.map((s) => strictestMatch(rules, (pattern) => commandMatches(pattern, segmentKey(s))));
  // A session grant holds for the folder it was given in: `npm test` elsewhere runs another script.
  const place = cwds.length === 1 && folders.unseen === undefined ? (cwdPath?.display ?? '.') : undefined;
  const sessionKey = (key: string): string => (place === '.' ? key : `${key} (in ${place})`);
  /** Segments that delete files where the gate may still grant them (`rm -rf build`): shown as destructive, never a permanent rule. */
  const deleting = analysis.segments.map((s) => (s.argv ? whyDeletes(s.argv) : undefined));
  /** A decision offering `segments` for always-allow, and (in this folder) for the session, each also as written for the card. */
  const decided = (decision: 'allow' | 'ask', by: string, reasons: string[], segments: readonly ShellSegment[]): PermissionDecision => {
    const keys = segments.map(segmentKey);
    const destructive = deleting.filter((why) => why !== undefined);
    const session = place === undefined ? [] : segments;
    return {
      decision,
      mode,
      source: by,
      reasons,
      grantable: keys,
      sessionGrants: session.map((s) => sessionKey(segmentKey(s))),
      sessionText: session.map((s) => sessionKey(s.text.trim())),
      ...(destructive.length > 0 ? { destructive } : {}),
    };
  };

  // Deny wins over everything, segment by segment (also inside substitutions and `bash -c`),
  // matched against every form of the command (/usr/bin/curl, `command curl`, `git -C . push`),
  // ignoring case (CURL is curl on a case-insensitive disk).
  const forms = analysis.segments.map((segment) => (segment.argv ? commandForms(segment.argv) : [segmentKey(segment)]).map((f) => f.toLowerCase()));
  const matchesAny = (rules: readonly PatternRule[], i: number) => strictestMatch(rules, (pattern) => forms[i]!.some((form) => commandMatches(pattern.toLowerCase(), form)));
  for (const [i, segment] of analysis.segments.entries()) {
    const rule = matchesAny(denyRules, i);
    if (rule) return deny('deny', rule.source, [`\`${segment.text}\` is denied by ${rule.source}`]);
  }

  // Destructive commands and what the parser cannot vouch for always ask.
  const always: string[] = [...analysis.issues.map((i) => `the command ${i}`)];
  for (const [i, segment] of analysis.segments.entries()) {
    // Words bash expands (a glob, braces, a tilde, a substitution) are not the words the gate has.
    const expanded = !segment.argv || segment.issues.some((issue) => /^(expands|has .* in pieces|runs the (command|process) substitution)/.test(issue));
    const name = segment.name === undefined ? undefined : path.basename(segment.argv?.[0] ?? segment.name);
    const unseen = expanded && name !== undefined && (DESTRUCTIVE_NAMES.has(name) || RUNS_OTHERS.has(name)) ? `what ${name} would do cannot be seen (its words are not literal)` : undefined;
    const { change } = commandPaths(input, folders, i);
    // A runner (`flock`, `taskset`, `unshare`, …) runs the command in its words where Peon cannot follow it.
    const runs = segment.argv && unwrap(segment.argv)?.[0];
    const runner = runs && RUNNERS.has(runs) ? `${runs} runs a command that Peon cannot take apart, so what it does cannot be seen` : undefined;
    const why = unseen ?? runner ?? (segment.argv ? whyDestructive(segment.argv, change) : undefined) ?? redirectObjection(segment.writes, change);
    if (why) {
      always.push(`\`${segment.text}\`: ${why} (destructive commands always ask)`);
      deleting[i] = why;
    }
    // With deny rules in force, a command that runs others or cannot be read might be one of them.
    else if (segment.issues.length > 0 && denyRules.length > 0) always.push(`\`${segment.text}\` cannot be checked against the deny rules: ${segment.issues.join('; ')}`);
  }
  if (always.length > 0) {
    const segmentIssues = analysis.segments.filter((s) => s.issues.length > 0).map((s) => `\`${s.text}\` ${s.issues.join('; ')}`);
    return decided('ask', source, [...new Set([...always, ...segmentIssues])], []);
  }
  const grantable = analysis.segments;
  // Ask rules apply in every mode, on every form of the command.
  const askRules = rules.filter((r) => r.mode === 'ask' || r.mode === 'semi-ask' || r.mode === 'semi-judge');
  const askRuleOf = analysis.segments.map((_, i) => matchesAny(askRules, i));
  const asked = analysis.segments.flatMap((segment, i) => (askRuleOf[i] ? [`\`${segment.text}\` asks by ${askRuleOf[i].source}`] : []));
  if (mode === 'allow' && asked.length > 0) return decided('ask', askRuleOf.find((r) => r)!.source, asked, grantable);
  if (mode === 'allow') return decided('allow', source, [], grantable);
  if (mode === 'ask') return decided('ask', source, [source], grantable);

  // semi-judge (and semi-ask): every segment must pass on its own; a relative path is
  // checked from every folder the line may be in, as the kernel will resolve it.
  // bash's `cd` is logical (`x/..` is where x was named): every folder the line reaches must pass a read check, once per line.
  const outsideFolder = cwds.map((cwd) => paths.read(cwd)).find((why) => why !== undefined);
  const reasonOf = outsideFolder === undefined ? undefined : `it runs in ${outsideFolder}`;
  const reasons: string[] = [];
  /** Only the segments that asked are offered for the session (or always): not the read-only ones around them. */
  const asking: ShellSegment[] = [];
  let judgeable = mode === 'semi-judge';
  let decidedBy = source;
  for (const [i, segment] of analysis.segments.entries()) {
    const match = matches[i];
    const label = `\`${segment.text}\``;
    const ask = (reason: string): void => {
      reasons.push(reason);
      if (!asking.some((s) => segmentKey(s) === segmentKey(segment))) asking.push(segment);
    };
    const askRule = askRuleOf[i];
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
    } else if (segment.argv && reasonOf === undefined && input.grants?.matchesPlan(input.tool, (pattern) => commandMatches(pattern, segmentKey(segment))) && (await planGrantHolds(segment.argv, paths, cwds, input.env ?? process.env))) {
      decidedBy = `allowed by the approved plan: ${segmentKey(segment)}`;
    } else {
      const objection = segment.argv ? whyNotWhitelisted(segment.argv, paths.read) : { why: 'its words are not all literal', judgeable: false };
      const beyond = objection || !segment.argv ? undefined : (reasonOf ?? (await whyListedAsks(segment.argv, paths, cwds, input.env ?? process.env)));
      if (objection) {
        ask(`${label}: ${objection.why}`);
        judgeable &&= objection.judgeable;
      } else if (beyond) {
        ask(`${label}: ${beyond}`);
        judgeable = false;
      }
    }
  }
  const only = asking;
  if (reasons.length === 0) return decided('allow', decidedBy, [], only);
  if (judgeable && input.judge) {
    const verdict = await input.judge(command);
    if (verdict === 'safe') return decided('allow', 'the judge model (peon.permission.judge) classified it as safe', [], only);
    reasons.push(verdict === 'unsafe' ? 'the judge model classified it as unsafe' : 'the judge model gave no clear answer');
  }
  return decided('ask', source, reasons, only);
}

/** Commands that walk a folder tree even when no word names one (`rg x` searches `.`). */
const WALKERS = new Set(['rg', 'ag', 'ack', 'fd', 'fdfind', 'find', 'tree', 'du', 'tar', 'zip', 'rsync', 'locate']);

/** Whether a segment reaches into folders: a recursion option, a folder operand, a command that walks by default. */
function reachesFolders(argv: readonly string[], cwds: readonly string[]): boolean {
  const [name = '', ...args] = argv;
  if (WALKERS.has(path.basename(name)) || (name === 'git' && args.includes('grep'))) return true;
  if (args.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || isLong(a, 'recursive', 3) || isLong(a, 'dereference-recursive', 3))) return true;
  return args.some((a) => !a.startsWith('-') && cwds.some((cwd) => fs.statSync(path.resolve(cwd, a), { throwIfNoEntry: false })?.isDirectory()));
}

/**
 * A plan's command pattern covers a segment only where its paths would pass a read (no
 * secret-like, outside, ignored or protected word), it names files rather than walking
 * folders (what is below a folder is not checked), and what it runs is what it names:
 * a pattern like `cat *` never reaches `cat .env` or `/etc/shadow`, nor `grep *` a
 * `grep -r` over the workspace.
 */
async function planGrantHolds(argv: readonly string[], paths: CommandPaths, cwds: readonly string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  if (reachesFolders(argv, cwds)) return false;
  const objection = whyNotWhitelisted(argv, paths.read);
  if (objection && !objection.judgeable) return false;
  return (await whyListedAsks(argv, paths, cwds, env)) === undefined;
}

/** Why a read-only command on the list must ask after all: what its name resolves to, a version manager, or what git would run or print. */
export async function whyListedAsks(argv: readonly string[], paths: CommandPaths, cwds: readonly string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const lookup = paths.lookup(argv[0]!);
  if (lookup) return lookup;
  if (isVersionQuery(argv)) return paths.toolchain();
  if (argv[0] !== 'git' || argv.length < 2) return undefined;
  for (const cwd of cwds.filter((c) => fs.statSync(c, { throwIfNoEntry: false })?.isDirectory())) {
    const why = await whyGitReadAsks(argv.slice(1), cwd, paths.read, env);
    if (why) return why;
  }
  return undefined;
}

/** Why the files a segment's redirections write make it destructive. */
function redirectObjection(writes: readonly (string | undefined)[], change: ChangeCheck): string | undefined {
  for (const target of writes) {
    if (target === undefined) return 'it writes to a file named by an expansion, which cannot be seen';
    const why = change(target, 'into');
    if (why) return `it writes to ${why}`;
  }
  return undefined;
}
