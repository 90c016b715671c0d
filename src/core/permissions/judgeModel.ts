// The optional judge (DESIGN.md §5, peon.permission.judge, off by default): for a command
// semi-judge would ask about only because it is not on the read-only list, a model
// classifies it. Fail-closed: only a clear SAFE lets it run; UNSAFE, anything else, an
// error or no answer within the deadline asks.
import { deadline } from '../deadline';
import type { ModelClient } from '../model/modelClient';

export type Verdict = 'safe' | 'unsafe' | 'uncertain';
export type CommandJudge = (command: string) => Promise<Verdict>;

const SYSTEM = `You review shell commands a coding agent wants to run in a user's project, before they run.
Answer SAFE only if the command certainly: only reads (files inside the project, build or test output), runs the project's own tests, linters, type checkers or builds, and does not delete, overwrite or move files outside build output, install or remove software, change git history or remotes, send data over the network, read secrets or credentials, or change system settings.
Answer UNSAFE otherwise, and whenever you are not sure.
Reply with exactly one word: SAFE or UNSAFE.`;

const DEADLINE_MS = 15_000;

export function modelJudge(client: ModelClient, signal: AbortSignal): CommandJudge {
  return async (command) => {
    const limit = deadline(signal, DEADLINE_MS);
    let text = '';
    try {
      for await (const event of client.stream({ system: SYSTEM, history: [{ role: 'user', text: `Command:\n${command}` }], tools: [], maxTokens: 16 }, limit.signal)) {
        if (event.type === 'text') text += event.delta;
      }
    } catch {
      return 'uncertain';
    } finally {
      limit.clear();
    }
    const word = text.trim().replace(/[.!]$/, '').toUpperCase();
    return word === 'SAFE' ? 'safe' : word === 'UNSAFE' ? 'unsafe' : 'uncertain';
  };
}
