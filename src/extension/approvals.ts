// Approval cards in the panel (DESIGN.md §5, §7): the broker's pending requests become
// cards the webview renders from the typed summary; answers come back by id. "Always
// allow" writes a pattern rule to user settings (never the workspace's, never for a
// destructive call; alwaysRules.ts); "Open diff" shows the proposal in VS Code's diff
// editor, where the person may edit it (the card then shows their version) and answer
// with Accept or Reject in the editor's title bar. Starting a project's MCP server and taking back a changed MCP tool are
// approved once, here and now: no grant, no rule. What waits is counted on the view's
// badge, and announced when the panel is hidden (approvalAttention.ts).
import * as vscode from 'vscode';
import { ApprovalBroker } from '../core/permissions/approvals';
import type { ApprovalReply, ApprovalRequest } from '../core/permissions/approvals';
import { cutText as cut } from '../shared/format';
import { CARD_DIFF_CHARS, isAgentType, type ApprovalCard, type HostMessage } from '../shared/messages';
import { AlwaysRules, openRules, userRules } from './alwaysRules';
import { ApprovalAttention, type AttentionFace } from './approvalAttention';
import { ProposalEditor } from './proposalEditor';
import { runtime } from './runtime';

/** A delegated agent's prompt on a card: enough to judge it, bounded. */
const CARD_PROMPT_CHARS = 4000;
/** Cards only Approve or Deny answer: what they approve is bound to exactly what they show. */
const ONCE_ONLY = new Set(['mcp-server', 'mcp-tools']);
/** Characters that make a pattern rule match more than the approved call. */
const GLOB_CHARS = /[*?[\]{}()!]/;

type Answer = 'once' | 'session' | 'always' | 'deny';

export class ApprovalCards implements vscode.Disposable {
  readonly broker: ApprovalBroker;
  private readonly cards = new Map<string, ApprovalCard>();
  /** The model's call id of each pending request, so its tool card can say it waits. */
  private readonly callIds = new Map<string, string>();
  private readonly proposals: ProposalEditor;
  private readonly rules: AlwaysRules;
  private readonly attention: ApprovalAttention | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly log: vscode.LogOutputChannel,
    /** A call starts or stops waiting for the person. */
    private readonly onWaiting: (callId: string, waiting: boolean) => void = () => {},
    /** The panel around the cards: its view (the badge), how to show it, where rules added from cards are remembered. */
    face?: AttentionFace & { readonly memento: vscode.Memento },
  ) {
    this.proposals = new ProposalEditor((id, text) => void this.showEdited(id, text));
    this.rules = new AlwaysRules(face?.memento);
    this.attention = face ? new ApprovalAttention(face) : undefined;
    this.broker = new ApprovalBroker({
      onRequest: (id, request) => {
        const card = cardOf(id, request);
        this.cards.set(id, card);
        if (request.callId) {
          this.callIds.set(id, request.callId);
          this.onWaiting(request.callId, true);
        }
        this.post({ type: 'approval', card });
        this.attention?.update(this.pending(), card);
      },
      onSettled: (id) => {
        this.cards.delete(id);
        const callId = this.callIds.get(id);
        this.callIds.delete(id);
        if (callId) this.onWaiting(callId, false);
        void this.proposals.close(id);
        this.post({ type: 'approvalSettled', id });
        this.attention?.update(this.pending());
      },
    });
    // A rule removed or edited by hand leaves the list too.
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('peon.permission.rules')) this.postRules();
    });
  }

  /** A view resolved again: its badge shows what waits. */
  refreshBadge(): void {
    this.attention?.update(this.pending());
  }

  /** The permanent rules added from cards, as they are in user settings now. */
  postRules(): void {
    this.post({ type: 'rules', rules: this.rules.list() });
  }

  /** Removes a rule added from a card (the panel's ×); anything else is left alone. */
  async removeRule(tool: string, pattern: string): Promise<void> {
    if (!(await this.rules.remove(tool, pattern))) this.log.warn(`Did not remove the rule ${tool} ${JSON.stringify(pattern)}: it is not one added from a card, or it is gone.`);
    this.postRules();
  }

  openRules(): void {
    void openRules();
  }

  /** Pending cards, sent again when the webview reloads. */
  pending(): ApprovalCard[] {
    return [...this.cards.values()];
  }

  async answer(id: string, answer: Answer, message?: string): Promise<void> {
    const request = this.broker.requestOf(id);
    if (!request) {
      this.log.warn(`Ignored an answer for approval ${id}: it is not pending (answered already, or withdrawn).`);
      return;
    }
    if (answer === 'deny') {
      this.broker.answer(id, { approved: false, ...(message?.trim() ? { message: message.trim() } : {}) });
      return;
    }
    const card = this.cards.get(id);
    // The host decides what an answer may do, not the webview: no rule without canAlways,
    // no grant without something grantable.
    const grantable = !ONCE_ONLY.has(request.assessment.summary.kind) && (request.permission.sessionGrants.length > 0 || request.assessment.offers !== undefined);
    const scope = answer === 'always' && card?.canAlways ? 'always' : answer !== 'once' && grantable ? 'session' : 'once';
    const edited = await this.proposals.editedText(id);
    if (!this.broker.isPending(id)) {
      this.log.warn(`Approval ${id} was withdrawn while it was being answered; nothing was allowed.`);
      return;
    }
    const wrote = scope === 'always' && (await this.rules.add(request.tool, request.permission.grantable));
    const reply: ApprovalReply = { approved: true, scope, ...(edited !== undefined ? { edited } : {}) };
    if (!this.broker.answer(id, reply)) this.log.warn(`Approval ${id} was withdrawn while it was being answered.`);
    if (!wrote) return;
    this.postRules();
    void this.rules.confirm(request.tool, request.permission.grantable);
  }

  async openDiff(id: string): Promise<void> {
    const request = this.broker.requestOf(id);
    const proposal = request?.assessment.proposal;
    if (!request || !proposal) {
      this.log.warn(`No proposal to show for approval ${id}.`);
      return;
    }
    await this.proposals.show(id, proposal);
  }

  /**
   * Accept or Reject in the diff editor's title bar (`target`: the URI VS Code passes, or
   * the active editor's): the card is answered as if in the panel, Accept once with the
   * person's edits. The approval is looked up from the proposal Peon opened, by its id.
   */
  async answerProposal(target: unknown, accept: boolean): Promise<void> {
    const id = this.proposals.idOf(target);
    if (id === undefined) {
      this.log.warn(`${accept ? 'Accept' : 'Reject'}: the active editor is not the proposal of a pending approval.`);
      return;
    }
    await this.answer(id, accept ? 'once' : 'deny');
  }

  /** The card shows the person's version of the proposal (a diff against the file as it is), or Peon's again once they undo their edit. */
  private async showEdited(id: string, text: string | undefined): Promise<void> {
    const proposal = this.broker.requestOf(id)?.assessment.proposal;
    if (!proposal) return;
    let diff: string | undefined;
    if (text !== undefined) {
      const before = proposal.currentSha256 === undefined ? undefined : await vscode.workspace.fs.readFile(vscode.Uri.file(proposal.path.canonical)).then((bytes) => Buffer.from(bytes).toString('utf8'), () => undefined);
      diff = cut(runtime().fileDiff(proposal.path.display, before, text), CARD_DIFF_CHARS);
    }
    const card = this.cards.get(id);
    if (!card) return;
    const shown: ApprovalCard = { ...card };
    delete shown.editedDiff;
    this.cards.set(id, diff === undefined ? shown : { ...shown, editedDiff: diff });
    this.post({ type: 'approvalEdited', id, diff: diff ?? null });
  }

  dispose(): void {
    this.subscription.dispose();
    this.broker.cancelAll();
    this.proposals.dispose();
  }
}

/** What the card shows of the summary: a delegate's prompt bounded, a changed MCP tool's text as a diff. */
function shownSummary(summary: ApprovalRequest['assessment']['summary']): ApprovalCard['summary'] {
  if (summary.kind === 'delegate' && summary.prompt.length > CARD_PROMPT_CHARS) {
    return { ...summary, prompt: `${summary.prompt.slice(0, CARD_PROMPT_CHARS)}\n… [${summary.prompt.length - CARD_PROMPT_CHARS} more characters]` };
  }
  // An MCP server's text is the server's, of any length: bounded to what the protocol carries, or the card would never show.
  if (summary.kind === 'mcp-tools') {
    const changes = summary.changes.slice(0, 100).map((c) => ({ tool: cut(c.tool, 200), before: cut(c.before, 50_000), after: cut(c.after, 50_000), diff: cut(runtime().fileDiff(c.tool, c.before, c.after), 200_000) }));
    return { ...summary, server: cut(summary.server, 200), changes };
  }
  if (summary.kind === 'mcp-server') {
    const lines = (list: readonly string[], max: number) => list.slice(0, max).map((line) => cut(line, 5000));
    return {
      ...summary,
      server: cut(summary.server, 200),
      launch: cut(summary.launch, 20_000),
      ...(summary.executable !== undefined ? { executable: cut(summary.executable, 4096) } : {}),
      env: lines(summary.env, 200),
      headers: lines(summary.headers, 100),
      ...(summary.programs ? { programs: summary.programs.slice(0, 50).map((p) => cut(p, 4096)) } : {}),
    };
  }
  if (summary.kind === 'mcp') return { ...summary, server: cut(summary.server, 200), tool: cut(summary.tool, 200), hidden: summary.hidden.slice(0, 20).map((h) => cut(h, 2000)) };
  return summary;
}

function cardOf(id: string, request: ApprovalRequest): ApprovalCard {
  const { assessment, permission } = request;
  const summary = shownSummary(assessment.summary);
  const once = ONCE_ONLY.has(summary.kind);
  const destructive = (permission.destructive?.length ?? 0) > 0;
  return {
    id,
    tool: cut(request.tool, 200),
    risk: assessment.risk,
    summary,
    source: permission.source,
    reasons: [...permission.reasons],
    grantable: once ? [] : [...permission.grantable],
    sessionGrants: once ? [] : sessionShown(request),
    // Never a permanent rule for what destroys data, nor one that would match more than this call.
    canAlways: !once && !destructive && permission.grantable.length > 0 && !permission.grantable.some((p) => GLOB_CHARS.test(p)) && typeof userRules()[request.tool] !== 'string',
    ...(destructive ? { destructive: permission.destructive!.slice(0, 200).map((why) => cut(why, 20_000)) } : {}),
    canOpenDiff: assessment.proposal !== undefined,
    // A subagent's call is labelled with its name and type.
    ...(request.agentType && isAgentType(request.agentType) ? { agent: request.agent, agentType: request.agentType } : {}),
  };
}

/**
 * What "Allow for this chat" covers as the person reads it: a command's segments as
 * written (the grant itself matches their words), without the folder the card names.
 */
function sessionShown({ permission, assessment }: ApprovalRequest): string[] {
  const texts = permission.sessionText?.length === permission.sessionGrants.length ? permission.sessionText : permission.sessionGrants;
  const summary = assessment.summary;
  if (summary.kind !== 'command' || summary.cwd === '.') return [...texts];
  const place = ` (in ${summary.cwd})`;
  return texts.map((text) => (text.endsWith(place) ? text.slice(0, -place.length) : text));
}
