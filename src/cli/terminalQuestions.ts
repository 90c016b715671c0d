// askuserquestion in a terminal (DESIGN.md §4, §8): asked on stderr, answered on stdin,
// only when stdin is a TTY. Without one (a pipe, --batch) nobody can answer, so the
// conversation gets no asker and the tool fails with `unavailable` at once, never waits.
import readline from 'node:readline';
import { stripTerminalEscapes } from '../core/process/terminalText';
import type { QuestionAsker } from '../core/tools/contract';

/** Bidi and zero-width characters, shown as ⟨U+XXXX⟩ so a question cannot hide or reorder text. */
const HIDDEN = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** The model's text as the terminal may show it: no escape sequence can clear, move, retitle or write the clipboard. */
export function shownOnTerminal(text: string): string {
  return stripTerminalEscapes(text.replace(/\r/g, '')).replace(HIDDEN, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

export function terminalAsker(batch: boolean): QuestionAsker | undefined {
  if (batch || !process.stdin.isTTY) return undefined;
  // One set of questions at a time: two subagents asking at once are asked in turn, so a
  // line typed answers only the question on the screen.
  let turn: Promise<unknown> = Promise.resolve();
  const asker = askOnTerminal();
  return (request, signal) => {
    const next = turn.then(() => (signal.aborted ? { unanswered: 'the run was cancelled.' } : asker(request, signal)));
    turn = next.catch(() => undefined);
    return next;
  };
}

function askOnTerminal(): QuestionAsker {
  return async ({ agent, agentType, questions }, signal) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    // Lines typed ahead (or pasted) wait in the iterator for the question they answer.
    const lines = rl[Symbol.asyncIterator]();
    const stopped = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true }));
    stopped.catch(() => undefined);
    const ask = async (prompt: string): Promise<string> => {
      rl.setPrompt(prompt);
      rl.prompt();
      const next = await Promise.race([lines.next(), stopped]);
      if (next.done) throw new Error('end of input');
      return next.value;
    };
    const answers: Record<string, string> = {};
    try {
      process.stderr.write(`\n${agent === 'main' || agent === 'cli' ? 'Peon asks' : `${shownOnTerminal(agent)}${agentType ? ` (${agentType})` : ''} asks`}:\n`);
      for (const q of questions) {
        const mark = q.required ? ' (required)' : '';
        const text = shownOnTerminal(q.question);
        for (;;) {
          let answer: string;
          if (q.type === 'select' && q.options) {
            process.stderr.write(`\n${text}${mark}\n${q.options.map((o, i) => `  ${i + 1}) ${shownOnTerminal(o)}`).join('\n')}\n  ${q.options.length + 1}) Custom answer\n`);
            const picked = (await ask('Choose a number: ')).trim();
            const n = Number(picked);
            if (Number.isInteger(n) && n >= 1 && n <= q.options.length) answer = q.options[n - 1]!;
            else if (n === q.options.length + 1) answer = (await ask('Your answer: ')).trim();
            else if (picked === '' && !q.required) answer = '';
            else {
              process.stderr.write(`Type a number from 1 to ${q.options.length + 1}.\n`);
              continue;
            }
          } else answer = (await ask(`\n${text}${mark}\n> `)).trim();
          if (answer === '' && q.required) {
            process.stderr.write('This question needs an answer.\n');
            continue;
          }
          answers[q.id] = answer;
          break;
        }
      }
      return { answers };
    } catch (error) {
      if (signal.aborted) return { unanswered: 'the run was cancelled.' };
      // stdin closed (Ctrl-D) before every question had its answer.
      return { unanswered: `the terminal closed before they were answered (${error instanceof Error ? error.message : String(error)}).` };
    } finally {
      rl.close();
    }
  };
}
