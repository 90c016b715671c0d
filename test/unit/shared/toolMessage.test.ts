import { expect, test } from 'vitest';
import { applyToolMessage, parseHostMessage, TOOL_DIFF_CHARS, type TranscriptEntry } from '../../../src/shared/messages';

// The tool card's part of the protocol: its statuses and facts, validated on receipt, and
// merged into the card the same way by the host (restore) and the webview (live).
test('a tool message carries denied and cancelled, a sentence, a second line, a path, a diff and a duration', () => {
  const message = { type: 'tool', id: 'e3', status: 'denied', output: '', headline: 'Write denied.txt', detail: 'Denied by you: not here', path: 'denied.txt', diff: '--- a/x\n+++ b/x', durationMs: 12 };
  expect(parseHostMessage(message)).toEqual({ ok: true, message });
  expect(parseHostMessage({ ...message, status: 'cancelled' }).ok).toBe(true);
  expect(parseHostMessage({ ...message, status: 'refused' }).ok).toBe(false);
  expect(parseHostMessage({ ...message, diff: 'x'.repeat(TOOL_DIFF_CHARS + 1) }).ok).toBe(false);
  expect(parseHostMessage({ ...message, durationMs: -1 }).ok).toBe(false);
});

test('a retry says which attempt failed, how long until the next, and why; nothing else', () => {
  expect(parseHostMessage({ type: 'retry', attempt: 1, delayMs: 4000, error: 'openai could not be reached' }).ok).toBe(true);
  expect(parseHostMessage({ type: 'retry', attempt: 0, delayMs: 4000, error: 'x' }).ok).toBe(false);
  expect(parseHostMessage({ type: 'retry', attempt: 1, delayMs: -5, error: 'x' }).ok).toBe(false);
});

test('a message replaces what it carries; facts it leaves out (a progress update) stay on the card', () => {
  const card: Extract<TranscriptEntry, { kind: 'tool' }> = { kind: 'tool', id: 'e1', name: 'bash', args: '{}', status: 'running', output: '', headline: 'Run `npm test`', detail: 'Run the tests' };
  applyToolMessage(card, { type: 'tool', id: 'e1', status: 'running', output: 'tick 1' });
  expect(card).toMatchObject({ output: 'tick 1', headline: 'Run `npm test`', detail: 'Run the tests' });
  applyToolMessage(card, { type: 'tool', id: 'e1', status: 'error', output: 'tick 1\n[exit code 1]', headline: 'Ran `npm test` · exit 1', durationMs: 4200 });
  expect(card).toEqual({ kind: 'tool', id: 'e1', name: 'bash', args: '{}', status: 'error', output: 'tick 1\n[exit code 1]', headline: 'Ran `npm test` · exit 1', detail: 'Run the tests', durationMs: 4200 });
});
