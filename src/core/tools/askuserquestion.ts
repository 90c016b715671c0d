// askuserquestion (DESIGN.md §4): questions put to the person, the loop blocked until they
// answer. Never gated; Stop answers it `cancelled`; where nobody can answer it fails at once.
import * as z from 'zod';
import { isQuestionId, MAX_QUESTIONS } from '../../shared/messages';
import description from './askuserquestion.md';
import { defineTool } from './defineTool';
import { ToolError } from './toolError';

const question = z.strictObject({
  id: z.string().min(1).max(100).refine(isQuestionId, 'letters, digits, _ . - only (not a reserved name such as __proto__)').describe('Identifier the answer is returned under (letters, digits, _ . -).'),
  question: z.string().min(1).max(4000).describe('The question, as the user will read it.'),
  type: z.enum(['text', 'select']).describe('text: free text; select: one of options (or a custom answer).'),
  options: z.array(z.string().min(1).max(500)).min(1).max(50).optional().describe('The choices, for select.'),
  required: z.boolean().optional().describe('The user must answer it before submitting.'),
});

const input = z.object({
  questions: z
    .array(question)
    .min(1)
    .max(MAX_QUESTIONS)
    .superRefine((questions, ctx) => {
      const seen = new Set<string>();
      for (const [i, q] of questions.entries()) {
        if (seen.has(q.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `the id ${JSON.stringify(q.id)} is used twice` });
        seen.add(q.id);
        if (q.type === 'select' && !q.options) ctx.addIssue({ code: 'custom', path: [i, 'options'], message: 'a select question needs options' });
      }
    })
    .describe('The questions, shown together.'),
});

export const askUserQuestionTool = defineTool({
  name: 'askuserquestion',
  description,
  input,
  risk: 'read_only',
  untimed: true,
  async assess(args) {
    return { risk: 'read_only', writes: false, paths: [], summary: { kind: 'question', text: args.questions.map((q) => q.question).join('\n') } };
  },
  async execute(args, ctx) {
    if (!ctx.ask) throw new ToolError('unavailable', 'Nobody can answer a question here (no terminal, or a batch run). Decide yourself from what you know, and say what you assumed.');
    const reply = await ctx.ask({ agent: ctx.agent, questions: args.questions }, ctx.signal);
    if (ctx.signal.aborted) throw new ToolError('cancelled', 'The user stopped the run while the questions were open; they were not answered.');
    if ('unanswered' in reply) throw new ToolError('cancelled', `The questions were not answered: ${reply.unanswered} Go on with what you know, and say what you assumed.`);
    const given = reply.answers;
    const answers: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const q of args.questions) {
      const value = Object.hasOwn(given, q.id) ? given[q.id] : undefined;
      const answer = typeof value === 'string' ? value.trim() : '';
      if (q.required && answer === '') throw new ToolError('cancelled', `The question ${JSON.stringify(q.id)} needed an answer and got none.`);
      answers[q.id] = answer;
    }
    return { output: JSON.stringify({ answers }), data: { answers } };
  },
});
