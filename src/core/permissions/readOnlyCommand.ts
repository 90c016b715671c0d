// Whether a command line only reads: every segment it runs is on the gate's read-only
// list, with no redirection, substitution or anything the parser cannot vouch for. Plan
// mode runs nothing else (DESIGN.md §4). Paths are not judged here: a read-only command
// on a secret-like or outside path still goes through the gate, which asks.
import { analyzeCommand } from '../shell/segments';
import { whyNotWhitelisted } from './commandJudge';

/** Why `command` is not read-only, or undefined when every segment is. */
export async function whyNotReadOnly(command: string): Promise<string | undefined> {
  const analysis = await analyzeCommand(command);
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
