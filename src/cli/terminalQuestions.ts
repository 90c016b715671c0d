// askuserquestion in a terminal (DESIGN.md §4, §8): asked on stderr, answered on stdin,
// only when stdin is a TTY. Without one (a pipe, --batch) nobody can answer, so the
// conversation gets no asker and the tool fails with `unavailable` at once, never waits.
import readline from 'node:readline/promises';
import type { QuestionAsker } from '../core/tools/contract';

export function terminalAsker(batch: boolean): QuestionAsker | undefined {
  if (batch || !process.stdin.isTTY) return undefined;
  return async ({ agent, questions }, signal) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    const ask = (prompt: string): Promise<string> => rl.question(prompt, { signal });
    const answers: Record<string, string> = {};
    try {
      process.stderr.write(`\n${agent === 'main' || agent === 'cli' ? 'Peon asks' : `${agent} asks`}:\n`);
      for (const q of questions) {
        const mark = q.required ? ' (required)' : '';
        for (;;) {
          let answer: string;
          if (q.type === 'select' && q.options) {
            process.stderr.write(`\n${q.question}${mark}\n${q.options.map((o, i) => `  ${i + 1}) ${o}`).join('\n')}\n  ${q.options.length + 1}) Custom answer\n`);
            const picked = (await ask('Choose a number: ')).trim();
            const n = Number(picked);
            if (Number.isInteger(n) && n >= 1 && n <= q.options.length) answer = q.options[n - 1]!;
            else if (n === q.options.length + 1) answer = (await ask('Your answer: ')).trim();
            else if (picked === '' && !q.required) answer = '';
            else {
              process.stderr.write(`Type a number from 1 to ${q.options.length + 1}.\n`);
              continue;
            }
          } else answer = (await ask(`\n${q.question}${mark}\n> `)).trim();
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
