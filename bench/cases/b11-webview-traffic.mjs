// B11: what the host posts to the webview while a turn streams 10,000 tokens in a
// session that already holds 2,000 messages: the extension's own Transcript
// (src/extension/transcript.ts) turning loop events into panel messages, each
// measured as the JSON VS Code sends. Budget: ≤ 1 KB per token (deltas, never the
// whole state).
import { loadTs } from '../../scripts/loadTs.mjs';
import { buildProduction, conversation, tokens } from '../webviewHarness.mjs';

export const id = 'B11';
export const title = 'host → webview bytes per token while streaming in a 2,000-message session';

const COUNT = 10_000;

export async function run() {
  buildProduction();
  const { Transcript } = await loadTs('src/extension/transcript.ts');
  let bytes = 0;
  let messages = 0;
  const transcript = new Transcript((message) => {
    bytes += Buffer.byteLength(JSON.stringify(message));
    messages++;
  });
  transcript.restore(conversation(2000).map((entry) => ({ type: 'append', entry })));
  const wholeState = Buffer.byteLength(JSON.stringify({ type: 'init', entries: transcript.entries }));
  transcript.append({ kind: 'user', text: 'Explain it all.' });
  for (const delta of tokens(COUNT)) transcript.apply({ type: 'text', delta });
  transcript.apply({ type: 'final', reason: 'end_turn' });
  const perToken = bytes / COUNT;
  return {
    reference: `${(wholeState / 1024).toFixed(0)} KB whole state`,
    measured: `${perToken.toFixed(1)} B/token`,
    ratio: perToken / wholeState,
    budget: '≤ 1 KB per token',
    pass: perToken <= 1024,
    note: `${messages.toLocaleString('en')} messages for ${COUNT.toLocaleString('en')} tokens`,
  };
}
