import { describe, expect, test } from 'vitest';
import {
  MAX_MESSAGE_CHARS,
  dispatch,
  parseHostMessage,
  parseWebviewMessage,
  type WebviewMessage,
} from '../../src/shared/messages';

describe('webview -> host messages are validated', () => {
  test.each([
    [{ type: 'ready', composer: true }],
    [{ type: 'send', text: 'fix the build' }],
    [{ type: 'remember', entryId: 'e12' }],
    [{ type: 'listMemory' }],
    [{ type: 'openMemory', id: 'obs-0a1b2c' }],
    [{ type: 'deleteMemory', id: 'cur-agents-md' }],
  ])('accepts %j', (raw) => {
    expect(parseWebviewMessage(raw)).toEqual({ ok: true, message: raw });
  });

  test.each([
    ['an unknown type', { type: 'runCommand', command: 'rm -rf ~' }, /^Invalid discriminator value\. Expected 'ready' \| 'send' \| 'stop' \| 'answer' \| 'openDiff' \| 'revokeGrant' \| 'answerQuestions' \| 'dismissQuestions' \| 'openAgent' \| 'closeAgent' \| 'stopAgent' \| 'remember' \| 'listMemory' \| 'openMemory' \| 'deleteMemory' \| 'editTodo' \| 'setup' at type$/],
    ['no type', { text: 'hi' }, /^Invalid discriminator value.* at type$/],
    ['a string', 'send', /^Invalid input: expected object, received string$/],
    ['null', null, /^Invalid input: expected object, received null$/],
    ['a blank message', { type: 'send', text: '   \n' }, /at text/],
    ['a number as text', { type: 'send', text: 42 }, /expected string.*at text/],
    ['composer as a string', { type: 'ready', composer: 'true' }, /expected boolean.*at composer/],
    ['remember without an entry', { type: 'remember', entryId: '' }, /at entryId/],
    ['a memory id as a number', { type: 'openMemory', id: 7 }, /expected string.*at id/],
    ['a memory id past its bound', { type: 'deleteMemory', id: 'x'.repeat(101) }, /at id/],
  ])('rejects %s', (_what, raw, error) => {
    const parsed = parseWebviewMessage(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });

  test('refuses a message longer than the limit instead of cutting it', () => {
    expect(parseWebviewMessage({ type: 'send', text: 'x'.repeat(MAX_MESSAGE_CHARS) }).ok).toBe(true);
    expect(parseWebviewMessage({ type: 'send', text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }).ok).toBe(false);
  });

  test('setup: a provider, or a local model by name; nothing else', () => {
    expect(parseWebviewMessage({ type: 'setup', choice: 'anthropic' }).ok).toBe(true);
    expect(parseWebviewMessage({ type: 'setup', choice: 'local', model: 'qwen3:8b' }).ok).toBe(true);
    expect(parseWebviewMessage({ type: 'setup', choice: 'local' }).ok).toBe(false);
    expect(parseWebviewMessage({ type: 'setup', choice: 'gemini' }).ok).toBe(false);
  });

  test('trims the text it accepts', () => {
    expect(parseWebviewMessage({ type: 'send', text: '  hi \n' })).toEqual({ ok: true, message: { type: 'send', text: 'hi' } });
  });

  test('drops fields the protocol does not define', () => {
    expect(parseWebviewMessage({ type: 'ready', composer: true, approve: 'all' })).toEqual({ ok: true, message: { type: 'ready', composer: true } });
  });
});

describe('host -> webview messages are validated', () => {
  test('accepts init, append and model', () => {
    const init = { type: 'init', entries: [{ kind: 'user', id: 'e1', text: 'hi' }], model: { state: 'unconfigured' } };
    expect(parseHostMessage(init).ok).toBe(true);
    expect(parseHostMessage({ type: 'append', entry: { kind: 'notice', id: 'e2', level: 'warning', text: 'x' } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'model', model: { state: 'configured', provider: 'openai' } }).ok).toBe(true);
  });

  const SHA = 'a'.repeat(64);
  test('accepts a skill chip, the skills list and the memory list', () => {
    expect(parseHostMessage({ type: 'append', entry: { kind: 'skill', id: 'e3', name: 'review', source: '.peon/skills/review/SKILL.md', sha256: SHA, hidden: [], forked: 'skill-review' } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'append', entry: { kind: 'skill', id: 'e4', name: 'gone', source: '.peon/skills/gone/SKILL.md', hidden: [], error: 'not found' } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'skills', skills: [{ name: 'review', description: 'Reviews a diff.', source: '.peon/skills/review/SKILL.md', fork: false }], problems: ['Skill .claude/skills/x/SKILL.md skipped: no name.'] }).ok).toBe(true);
    expect(parseHostMessage({ type: 'memory', enabled: true, entries: [{ id: 'obs-0a1b2c', kind: 'observation', title: 'Use pnpm', file: '.peon/memory/observations/obs-0a1b2c.md', created: '2025-01-01T00:00:00.000Z', stale: false }] }).ok).toBe(true);
  });

  test.each([
    ['a skill chip whose hash is not a SHA-256', { type: 'append', entry: { kind: 'skill', id: 'e3', name: 'x', source: 's', sha256: 'abc', hidden: [] } }],
    ['a skill chip without its hidden list', { type: 'append', entry: { kind: 'skill', id: 'e3', name: 'x', source: 's' } }],
    ['a skill whose fork is a string', { type: 'skills', skills: [{ name: 'x', description: '', source: 's', fork: 'yes' }], problems: [] }],
    ['a memory entry of unknown kind', { type: 'memory', enabled: true, entries: [{ id: 'x', kind: 'secret', title: 't', file: 'f', stale: false }] }],
    ['memory without enabled', { type: 'memory', entries: [] }],
  ])('rejects %s', (_what, raw) => {
    expect(parseHostMessage(raw).ok).toBe(false);
  });

  test.each([
    ['an entry of unknown kind', { type: 'append', entry: { kind: 'html', id: 'e1', html: '<img src=x>' } }],
    ['a notice level outside the set', { type: 'append', entry: { kind: 'notice', id: 'e1', level: 'raw', text: 'x' } }],
    ['an entry without id', { type: 'append', entry: { kind: 'user', text: 'x' } }],
    ['a model state outside the set', { type: 'model', model: { state: 'ready' } }],
  ])('rejects %s', (_what, raw) => {
    expect(parseHostMessage(raw).ok).toBe(false);
  });
});

test('dispatch calls the handler of the message type, and only it', () => {
  const seen: string[] = [];
  const handlers = {
    ready: () => seen.push('ready'),
    send: (m: Extract<WebviewMessage, { type: 'send' }>) => seen.push(`send:${m.text}`),
    stop: () => seen.push('stop'),
    setup: () => seen.push('setup'),
    answer: () => seen.push('answer'),
    openDiff: () => seen.push('openDiff'),
    revokeGrant: () => seen.push('revokeGrant'),
    answerQuestions: () => seen.push('answerQuestions'),
    dismissQuestions: () => seen.push('dismissQuestions'),
    editTodo: () => seen.push('editTodo'),
    openAgent: () => seen.push('openAgent'),
    closeAgent: () => seen.push('closeAgent'),
    stopAgent: () => seen.push('stopAgent'),
    remember: () => seen.push('remember'),
    listMemory: () => seen.push('listMemory'),
    openMemory: () => seen.push('openMemory'),
    deleteMemory: () => seen.push('deleteMemory'),
  };
  dispatch<WebviewMessage>(handlers, { type: 'send', text: 'a' });
  dispatch<WebviewMessage>(handlers, { type: 'ready', composer: false });
  expect(seen).toEqual(['send:a', 'ready']);
});
