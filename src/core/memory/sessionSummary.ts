// The summary written to memory when a conversation is closed (DESIGN.md §4): what the
// person asked, what changed and how it ended, taken from the history as it is — no
// model request, so closing a chat costs nothing. (Compaction's summary is the model's.)
import { cutText as cut } from '../../shared/format';
import type { HistoryItem } from '../model/modelClient';

const CHANGING = new Set(['write', 'edit', 'delete']);
/** A prompt as the person wrote it: the skill blocks `/skill-name` added left out (the name stays). */
const withoutSkills = (text: string): string => text.replace(/\n*<skill:([a-z0-9-]+)[ >][\s\S]*?<\/skill:\1>/g, '');

/** A title and Markdown body for the session, or undefined when it has no answered prompt. */
export function closingSummary(history: readonly HistoryItem[], date = new Date()): { title: string; body: string } | undefined {
  const prompts = history.filter((h): h is HistoryItem & { role: 'user' } => h.role === 'user' && !h.text.startsWith('<summary of the earlier conversation>') && !h.text.startsWith('<subagent_report'));
  const answers = history.filter((h): h is HistoryItem & { role: 'assistant' } => h.role === 'assistant' && h.text.trim() !== '');
  if (prompts.length === 0 || answers.length === 0) return undefined;
  const files = new Set<string>();
  const commands: string[] = [];
  for (const item of history) {
    if (item.role !== 'assistant') continue;
    for (const call of item.toolCalls) {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(call.arguments || '{}') as Record<string, unknown>;
      } catch {
        continue;
      }
      const file = args.path ?? args.filePath;
      if (CHANGING.has(call.name) && typeof file === 'string') files.add(file);
      if (call.name === 'bash' && typeof args.command === 'string' && commands.length < 20) commands.push(cut(args.command.replace(/\s+/g, ' '), 200));
    }
  }
  const first = prompts[0]!.text.split('\n').find((l) => l.trim() !== '') ?? 'a session';
  const title = `Session ${date.toISOString().slice(0, 16).replace('T', ' ')}: ${cut(first.trim(), 80)}`;
  const body = [
    '## Asked',
    ...prompts.slice(0, 20).map((p) => `- ${cut(withoutSkills(p.text).replace(/\s+/g, ' ').trim(), 400)}`),
    ...(files.size ? ['', '## Files changed', ...[...files].slice(0, 50).map((f) => `- ${f}`)] : []),
    ...(commands.length ? ['', '## Commands run', ...commands.map((c) => `- \`${c.replace(/`/g, "'")}\``)] : []),
    '',
    '## Last answer',
    cut(answers[answers.length - 1]!.text.trim(), 2000),
  ].join('\n');
  return { title, body };
}
