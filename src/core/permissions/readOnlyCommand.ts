// Whether a command line only reads: every segment it runs is on the gate's read-only
// list, with no redirection, substitution or anything the parser cannot vouch for, and
// none of them would run a program the workspace picks (a PATH entry in the workspace, a
// version manager's file, git config naming a program or a hook). Plan mode runs nothing
// else (DESIGN.md §4). Paths are not judged here: a read-only command on a secret-like or
// outside path still goes through the gate, which asks.
import fs from 'node:fs';
import { analyzeCommand, type CommandAnalysis } from '../shell/segments';
import { whyListedAsks } from './commandGate';
import { whyNotWhitelisted } from './commandJudge';
import { isLong } from './commandOptions';
import { commandPaths, lineFolders } from './commandPaths';
import type { GateInput } from './gate';

/** Why plan mode refuses `command`: not read-only, or what it would run is not what it says. */
export async function whyNotPlanSafe(command: string, input: GateInput): Promise<string | undefined> {
  const analysis = await analyzeCommand(command);
  const syntactic = whyNotReadOnly(analysis);
  if (syntactic) return syntactic;
  const { segments } = analysis;
  const env = input.env ?? process.env;
  const folders = lineFolders(segments, input.assessment.paths[0]?.canonical ?? process.cwd(), env);
  const paths = commandPaths(input, folders);
  const cwds = folders.cwds.filter((c) => fs.statSync(c, { throwIfNoEntry: false })?.isDirectory());
  for (const segment of segments) {
    const argv = segment.argv!;
    // `git describe --dirty` refreshes the index to tell: it writes .git.
    if (argv[0] === 'git' && argv[1] === 'describe' && argv.some((a) => isLong(a, 'dirty') || isLong(a, 'broken'))) return `\`${segment.text.trim()}\` refreshes the git index, which writes .git`;
    const why = await whyListedAsks(argv, paths, cwds, env);
    if (why) return `\`${segment.text.trim()}\`: ${why}`;
  }
  return undefined;
}

/** Why the analysed line is not read-only, or undefined when every segment is. */
function whyNotReadOnly(analysis: CommandAnalysis): string | undefined {
  if (analysis.issues.length > 0) return `the command ${analysis.issues[0]}`;
  for (const segment of analysis.segments) {
    const label = `\`${segment.text.trim()}\``;
    if (segment.issues.length > 0) return `${label} ${segment.issues[0]}`;
    if (!segment.argv) return `${label}: its words are not all literal`;
    if (segment.writes.length > 0) return `${label} writes to a file (a redirection)`;
    const objection = whyNotWhitelisted(segment.argv, () => undefined);
    if (objection) return `${label}: ${objection.why}`;
  }
  return undefined;
}
