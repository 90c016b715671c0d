// askuserquestion in the panel (DESIGN.md §4): each call's questions become one modal in
// the webview, answered by id. Stop withdraws it (the tool returns `cancelled`); an
// answer is checked against the questions it claims to answer before it counts.
import type * as vscode from 'vscode';
import { Broker } from '../core/broker';
import type { QuestionAsker, QuestionReply } from '../core/tools/contract';
import { isAgentType, type AgentTypeName, type HostMessage, type Question, type QuestionRequest } from '../shared/messages';

interface Asked {
  readonly agent: string;
  readonly agentType?: string;
  readonly questions: readonly Question[];
}

export class QuestionModal implements vscode.Disposable {
  private readonly broker: Broker<Asked, QuestionReply>;

  constructor(
    post: (message: HostMessage) => void,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.broker = new Broker<Asked, QuestionReply>(
      {
        onRequest: (id, asked) => post({ type: 'question', request: { id, ...labelOf(asked), questions: [...asked.questions] } }),
        onSettled: (id) => post({ type: 'questionSettled', id }),
      },
      (why) => ({ unanswered: why === 'stopped' ? 'the user pressed Stop.' : 'the chat they were asked in was closed.' }),
    );
  }

  /** The conversation's question asker. */
  readonly ask: QuestionAsker = (request, signal) => this.broker.request(request, signal);

  /** Open questions, sent again when the webview reloads. */
  pending(): QuestionRequest[] {
    return this.broker.entries().map(([id, asked]) => ({ id, ...labelOf(asked), questions: [...asked.questions] }));
  }

  answer(id: string, given: Readonly<Record<string, string>>): void {
    const asked = this.broker.requestOf(id);
    if (!asked) {
      this.log.warn(`Ignored answers for questions ${id}: they are not open (answered already, or withdrawn).`);
      return;
    }
    const known = new Set(asked.questions.map((q) => q.id));
    const stray = Object.keys(given).filter((key) => !known.has(key));
    const answerOf = (id: string): string => (Object.hasOwn(given, id) && typeof given[id] === 'string' ? given[id].trim() : '');
    const missing = asked.questions.filter((q) => q.required && answerOf(q.id) === '').map((q) => q.id);
    if (stray.length > 0 || missing.length > 0) {
      this.log.warn(`Ignored answers for questions ${id}: ${stray.length > 0 ? `unknown questions ${stray.join(', ')}` : `required questions unanswered: ${missing.join(', ')}`}.`);
      return;
    }
    this.broker.answer(id, { answers: Object.fromEntries(asked.questions.map((q) => [q.id, answerOf(q.id)])) });
  }

  dismiss(id: string): void {
    if (!this.broker.answer(id, { unanswered: 'the user closed the questions without answering.' })) this.log.warn(`Ignored closing questions ${id}: they are not open.`);
  }

  dispose(): void {
    this.broker.cancelAll();
  }
}

/** Who asks: the main agent, or a subagent by its name and type. */
function labelOf(asked: { readonly agent: string; readonly agentType?: string }): { agent: string; agentType?: AgentTypeName } {
  return { agent: asked.agent, ...(asked.agentType && isAgentType(asked.agentType) ? { agentType: asked.agentType } : {}) };
}
