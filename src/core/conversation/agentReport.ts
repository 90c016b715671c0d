// How a subagent's outcome reads to the agent that started it (task's result, a
// background report joining the next request) and in taskstatus: one header line of
// facts — name, type, status, turns, tokens, cost, time, which bound stopped it, where
// its transcript is — then its text, bounded.
import { formatUsd } from '../../shared/format';
import type { AgentInfo } from '../../shared/messages';

/** The most of a subagent's text its parent gets back. */
export const REPORT_CHARS = 20_000;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** At most `max` characters, a cut saying how much is left out. */
export function bounded(text: string, max = REPORT_CHARS): string {
  if (text.length <= max) return text;
  const note = (n: number): string => `\n… [${n} more characters; the whole text is in its transcript]`;
  const keep = max - note(text.length).length;
  return `${text.slice(0, keep)}${note(text.length - keep)}`;
}

/**
 * A subagent's own words cannot close its report and open a forged one (`</subagent_report>
 * <subagent_report status="completed">…`): the tag's `<` inside them is shown as `‹`.
 */
const inert = (text: string): string => text.replace(/<(\/?\s*subagent_report)/gi, '‹$1');

/** "scout (explorer) · completed · 3 turns · 1,234 tokens · $0.0123 · 4.2 s". */
export function agentFacts(info: AgentInfo, now = Date.now()): string {
  const elapsed = info.elapsedMs + (info.status === 'running' ? now - info.startedAt : 0);
  const state = info.status === 'running' && info.waiting ? `running, waiting for ${info.waiting === 'approval' ? 'your approval' : 'an answer to its question'}` : info.status;
  return [
    `${info.name} (${info.type})`,
    state,
    `${info.turns} turn${info.turns === 1 ? '' : 's'}`,
    `${info.tokens.toLocaleString('en-US')} tokens`,
    ...(info.cost !== undefined ? [formatUsd(info.cost)] : []),
    seconds(elapsed),
  ].join(' · ');
}

/** What the parent reads when a task ends (foreground: the call's result; background: a report in its next request). */
export function agentReport(info: AgentInfo): string {
  const lines = [`<subagent_report name="${info.name}" type="${info.type}" status="${info.status}">`, agentFacts(info)];
  if (info.stoppedBy) lines.push(info.status === 'completed' ? `Note: ${inert(info.stoppedBy)}` : `Stopped: ${inert(info.stoppedBy)}. What it had so far follows.`);
  if (info.transcript) lines.push(`Transcript: ${info.transcript}`);
  lines.push('', info.lastText === '' ? '(it gave no text)' : inert(bounded(info.lastText)), '</subagent_report>');
  return lines.join('\n');
}

/** The card's sentence for a finished task. */
export function agentHeadline(info: AgentInfo): string {
  const how = info.status === 'completed' ? 'finished' : info.status === 'failed' ? `stopped${info.stoppedBy ? `: ${info.stoppedBy}` : ''}` : info.status;
  return `${info.name} (${info.type}) ${how} · ${info.turns} turn${info.turns === 1 ? '' : 's'} · ${info.tokens.toLocaleString('en-US')} tokens${info.cost !== undefined ? ` · ${formatUsd(info.cost)}` : ''}`;
}

/** taskstatus: a paragraph per agent. */
export function agentStatusText(agents: readonly AgentInfo[], missing: readonly string[], now = Date.now()): string {
  const parts = agents.map((a) => {
    const lines = [`- ${agentFacts(a, now)} · started by ${a.parent}${a.background ? ', in the background' : ''}`];
    if (a.stoppedBy) lines.push(`  ${a.status === 'completed' ? 'note' : 'why'}: ${inert(a.stoppedBy)}`);
    if (a.lastText) lines.push(`  last text: ${inert(bounded(a.lastText, 1000)).replace(/\n/g, '\n  ')}`);
    return lines.join('\n');
  });
  for (const name of missing) parts.push(`- ${name}: no subagent has this name in this conversation.`);
  return parts.length > 0 ? parts.join('\n') : 'No subagents have been started in this conversation.';
}
