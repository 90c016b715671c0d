import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { judge, type PermissionDecision } from '../../../src/core/permissions/gate';
import { analyzeCommand, type CommandAnalysis } from '../../../src/core/shell/segments';
import { unwrap } from '../../../src/core/shell/commandWords';
import { Workspace } from '../../../src/core/workspace/workspace';
import os from 'node:os';
import { generateCommands } from './commandGenerator';
import { makeLane, type Lane, type Started } from './recordingShell';

// The differential test of the bash gate (issue: "prove the class is closed"): thousands
// of generated command lines, each judged by the real gate and run by the real
// /bin/bash -lc with recorder shims for every program and builtin. Two properties:
//  - fidelity: when the gate found nothing it could not read on the line, every program
//    bash started is a segment the gate saw, with the same argv (or, for a segment whose
//    words are not literal, the same name);
//  - safety: whenever the gate says "runs without asking", every program bash started is
//    a segment the gate saw with exactly that argv, run from PATH (not from the
//    workspace), and the folder is untouched.
// Failures it found are kept below as named regression cases.

const SEED = 0x5eed_2026;
const COUNT = 3000;

/** Cases this test (or the review) found; each split the gate from bash once. */
const REGRESSIONS: readonly (readonly [string, string])[] = [
  ['F1: a vertical tab before #', 'ls \u000b#; touch pwned; rm -rf victim'],
  ['F1: a form feed before #', 'echo a\f#; touch pwned'],
  ['F1: an escaped vertical tab before #', 'echo a\\\u000b#; touch pwned'],
  ['F1: an escaped tab before #', 'echo a\\\t#; touch pwned'],
  ['an escaped space before # (tree-sitter skips "\\ " as a blank)', 'echo \\ #; touch pwned'],
  ['an escaped space before a word', 'cat \\ README.md'],
  ['F2: {PATH}> reassigns PATH', 'echo {PATH}>/dev/null; ls'],
  ['F2: {HOME}> reassigns HOME', 'echo {HOME}>/dev/null; git status'],
  ['F2 with a subscript', 'echo {a[1]}>/dev/null; ls'],
  // Found by this test in the gate as the review left it:
  ['a NEL (U+0085), which the parser skips as a blank and bash keeps in the word', 'head \u0085-n 1 README.md'],
  ['an ideographic space (U+3000) before an option', 'wc \u3000-l README.md'],
  ['a paragraph separator (U+2029) after an option', 'head -n\u2029 1 README.md true'],
  ['a vertical tab inside a word', 'cat README.\u000bmd'],
  ['a form feed before an escaped letter', 'echo "a b"|cat \f\\fREADM\\E.md ; date +%s'],
  ['a control character inside a word the parser splits', 'wc -l README.md\u001c read x\u000b | echo hi'],
  ['a command substitution inside a command name', 'ech`ls`o hi'],
  ['an ANSI-C quote the parser reads across quotes', "pwd|echo 'x y$'\\n''PATH=~10 "],
  ['an escaped space after a word', 'false \\ && true'],
];

const savedHome = process.env.HOME;
let lanes: Lane[];
let workspaces: Workspace[];
let dir: string;

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'peon-differential-')));
  lanes = [0, 1].map((i) => makeLane(path.join(dir, `lane${i}`)));
  workspaces = lanes.map((lane) => new Workspace([{ path: lane.workspace }], lane.home));
  // The gate expands `~` with this process's HOME; bash with the lane's.
  process.env.HOME = lanes[0]!.home;
});
afterAll(() => {
  process.env.HOME = savedHome;
  fs.rmSync(dir, { recursive: true, force: true });
});

const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((w, i) => w === b[i]);

/** Whether the gate saw `started`: a segment with its argv (as written or unwrapped), or a non-literal segment with its name. */
function seen(analysis: CommandAnalysis, started: Started, exact: boolean): boolean {
  return analysis.segments.some((s) => {
    if (s.argv && (same(s.argv, started.argv) || same(unwrap(s.argv) ?? [], started.argv))) return true;
    if (exact) return false;
    const name = s.name === undefined ? undefined : path.basename(s.name);
    return s.issues.length > 0 && (name === started.argv[0] || name === undefined || !/^[\w.-]+$/.test(name));
  });
}

interface Violation {
  readonly command: string;
  readonly decision: PermissionDecision['decision'];
  readonly problem: string;
}

async function check(lane: Lane, workspace: Workspace, command: string): Promise<{ violations: Violation[]; decision: PermissionDecision['decision'] }> {
  const [analysis, decision] = await Promise.all([
    analyzeCommand(command),
    judge({
      tool: 'bash',
      assessment: { risk: 'process', writes: false, paths: [workspace.resolve('.')], summary: { kind: 'command', command, cwd: '.' } },
      resolve: (p) => workspace.resolve(p),
      resolveLink: (p) => workspace.resolveLink(p),
      roots: workspace.folders.map((f) => f.root),
      env: { PATH: '/usr/bin:/bin', HOME: lane.home },
    }),
  ]);
  const { records, changed } = await lane.run(command);
  const violations: Violation[] = [];
  const add = (problem: string): number => violations.push({ command, decision: decision.decision, problem });
  const clean = analysis.issues.length === 0;
  for (const started of records) {
    const fromPath = path.dirname(started.program) === lane.shims;
    if (decision.decision === 'allow' && (!fromPath || !seen(analysis, started, true))) add(`allowed, but bash started ${JSON.stringify(started)}`);
    else if (clean && !fromPath) add(`read cleanly, but bash started ${started.program} from the workspace`);
    else if (clean && !seen(analysis, started, false)) add(`read cleanly, but bash started ${JSON.stringify(started.argv)}, which the gate never saw`);
  }
  if (decision.decision === 'allow' && changed) add('allowed, but the folder changed');
  return { violations, decision: decision.decision };
}

test('every regression case: the gate does not allow it, and what bash runs of it is accounted for', async () => {
  const violations: Violation[] = [];
  for (const [name, command] of REGRESSIONS) {
    const found = await check(lanes[0]!, workspaces[0]!, command);
    expect(found.decision, name).not.toBe('allow');
    violations.push(...found.violations.map((v) => ({ ...v, problem: `${name}: ${v.problem}` })));
  }
  expect(violations).toEqual([]);
});

test(`${COUNT} generated command lines (seed ${SEED.toString(16)}): what the gate allows is what bash runs, and touches nothing`, async () => {
  const commands = generateCommands(SEED, COUNT);
  const violations: Violation[] = [];
  const decisions = { allow: 0, ask: 0, deny: 0 };
  let next = 0;
  await Promise.all(
    lanes.map(async (lane, i) => {
      for (let at = next++; at < commands.length; at = next++) {
        const found = await check(lane, workspaces[i]!, commands[at]!);
        decisions[found.decision]++;
        violations.push(...found.violations);
      }
    }),
  );
  fs.mkdirSync('test-results', { recursive: true });
  fs.writeFileSync(path.join('test-results', 'gate-differential.json'), JSON.stringify({ seed: SEED, count: COUNT, decisions, violations }, null, 2));
  // The generator must reach both outcomes often, or the test proves nothing.
  expect(decisions.allow, 'commands the gate allowed').toBeGreaterThan(COUNT / 20);
  expect(decisions.ask, 'commands the gate asked about').toBeGreaterThan(COUNT / 4);
  expect(violations.slice(0, 20), `${violations.length} violations`).toEqual([]);
}, 900_000);
