// A conversation exported as Markdown (the history view's Export): what the person and
// Peon wrote, each tool call as one line, notices and summaries as quotes. Built from
// the transcript the panel shows, so the file reads like the chat did.
import type { TranscriptEntry } from '../../shared/transcript';
import { formatUsd } from '../../shared/format';

export interface ExportedSession {
  readonly title: string;
  readonly createdAt: string;
  readonly cost?: number;
}

const quote = (text: string): string => text.split('\n').map((line) => `> ${line}`.trimEnd()).join('\n');
/** Inline code that holds any backticks it contains. */
const code = (text: string): string => {
  const one = text.replace(/\s+/g, ' ').trim();
  const run = Math.max(0, ...[...one.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(run + 1);
  return run > 0 ? `${fence} ${one} ${fence}` : `${fence}${one}${fence}`;
};
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function sessionMarkdown(session: ExportedSession, entries: readonly TranscriptEntry[]): string {
  const about = [`Started ${session.createdAt}`, ...(session.cost !== undefined ? [`cost ${formatUsd(session.cost)}`] : [])].join(' · ');
  const parts = [`# ${session.title.replace(/\n/g, ' ')}`, `*${about}. Exported from Peon.*`];
  for (const entry of entries) {
    switch (entry.kind) {
      case 'user':
        parts.push(`## You\n\n${entry.text}`);
        break;
      case 'assistant':
        parts.push(`## Peon\n\n${entry.text}`);
        break;
      case 'tool': {
        const what = entry.headline ?? `${entry.title ?? entry.name} ${code(cut(entry.args, 200))}`;
        parts.push(`- *Tool:* ${what} (${entry.status})`);
        break;
      }
      case 'skill':
        parts.push(`- *Skill:* /${entry.name} from ${code(entry.source)}${entry.error ? ` (not loaded: ${entry.error})` : ''}`);
        break;
      case 'notice':
        parts.push(quote(entry.text));
        break;
      case 'summary':
        parts.push(`### Earlier turns, summarised\n\n${quote(entry.text)}`);
        break;
    }
  }
  return `${parts.join('\n\n')}\n`;
}
