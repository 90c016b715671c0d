// Until the approval cards land in the panel, a call that asks is put to the user in a
// modal dialog, rendered from the typed approval summary (never from the tool name).
// Stop resolves it as denied; a click after that is ignored.
import * as vscode from 'vscode';
import type { ApprovalSummary } from '../core/tools/contract';
import type { Approver } from '../core/tools/session';

const DETAIL_CHARS = 3000;
const cut = (text: string): string => (text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS)}\n… [${text.length - DETAIL_CHARS} more characters]` : text);

function describe(summary: ApprovalSummary): { message: string; detail: string } {
  switch (summary.kind) {
    case 'file-change':
      return { message: `Peon wants to ${summary.operation} ${summary.path}`, detail: [...summary.reasons, summary.diff].join('\n') };
    case 'file-access':
      return { message: `Peon wants to read ${summary.path}`, detail: summary.reasons.join('\n') };
    case 'command':
      return { message: 'Peon wants to run a command', detail: [summary.description ?? '', `$ ${summary.command}`, `in ${summary.cwd}`].filter(Boolean).join('\n') };
    case 'delegate':
      return { message: `Peon wants to start ${summary.executable}`, detail: [`argv: ${JSON.stringify(summary.argv)}`, `workspace: ${summary.workspace}`, summary.warning].join('\n') };
    case 'network':
      return { message: `Peon wants to fetch ${summary.url}`, detail: '' };
    case 'question':
    case 'generic':
      return { message: 'Peon asks for approval', detail: summary.text };
  }
}

export const dialogApprover: Approver = async (request, signal) => {
  const { message, detail } = describe(request.assessment.summary);
  const why = request.permission.reasons.length > 0 ? `Asked because: ${request.permission.reasons.join('; ')} (${request.permission.source})\n\n` : '';
  const answer = vscode.window.showWarningMessage(message, { modal: true, detail: cut(`${why}${detail}`) }, 'Allow');
  const cancelled = new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
  const choice = await Promise.race([answer, cancelled]);
  return choice === 'Allow' && !signal.aborted ? { approved: true } : { approved: false };
};
