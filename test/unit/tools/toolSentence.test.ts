import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { CallPipeline, type ToolCallOutcome } from '../../../src/core/conversation/pipeline';
import { ConversationState } from '../../../src/core/conversation/state';
import type { ApprovalReply, Approver } from '../../../src/core/permissions/approvals';
import { DEFAULT_PERMISSIONS } from '../../../src/core/permissions/rules';
import { TodoStore } from '../../../src/core/todos/todoStore';
import { builtinRegistry } from '../../../src/core/tools/builtins';
import { diffStat, finishedCard, plannedCard } from '../../../src/core/tools/toolSentence';
import { makeContext, makeSession, makeWorkspace, tempDir } from './toolTestContext';

// The tool card's sentence (DESIGN.md §7), from real results: each tool runs in a temp
// workspace through the real pipeline, and its outcome is what the card reads.
const INDEX = Array.from({ length: 40 }, (_, i) => (i === 11 ? 'function makeArray(x) {' : i === 20 ? 'const a = makeArray(1); // makeArray' : `line ${i + 1}`)).join('\n') + '\n';

async function run(session: CallPipeline, name: string, args: Record<string, unknown>) {
  const outcome = await session.call(name, args);
  return { outcome, card: finishedCard(name, args, outcome) };
}

describe('a built-in call reads as a sentence built from its typed result', () => {
  test('read: the file and the lines it returned; a path the card opens', async () => {
    const session = makeSession(makeWorkspace({ 'index.js': INDEX, 'big.txt': 'x\n'.repeat(100), 'empty.txt': '', 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]) }));
    expect(plannedCard('read', { path: 'index.js' })).toEqual({ headline: 'Read index.js', path: 'index.js' });
    expect((await run(session, 'read', { path: 'index.js' })).card).toEqual({ status: 'ok', headline: 'Read index.js · lines 1–40', path: 'index.js' });
    expect((await run(session, 'read', { path: 'big.txt', offset: 10, limit: 5 })).card.headline).toBe('Read big.txt · lines 10–14 of 100');
    expect((await run(session, 'read', { path: 'empty.txt' })).card.headline).toBe('Read empty.txt · empty');
    expect((await run(session, 'read', { path: 'logo.png' })).card.headline).toBe('Read logo.png · binary (PNG image), 12 B');
    expect((await run(session, 'read', { path: 'big.txt', unit: 'bytes', limit: 10 })).card.headline).toBe('Read big.txt · bytes 0–10 of 200');
    // A failure keeps the planned sentence; why it failed is the second line.
    const missing = await run(session, 'read', { path: 'nope.js' });
    expect(missing.card).toEqual({ status: 'error', headline: 'Read nope.js', path: 'nope.js', detail: 'nope.js does not exist. Check the path with list or glob.' });
  });

  test('grep, glob and list: what was searched and how much was found', async () => {
    const session = makeSession(makeWorkspace({ 'index.js': INDEX, 'lib/legacy.js': 'makeArray()\n', 'README.md': '# x\n' }));
    expect(plannedCard('grep', { pattern: 'makeArray' })).toEqual({ headline: 'Search /makeArray/' });
    expect((await run(session, 'grep', { pattern: 'makeArray' })).card).toEqual({ status: 'ok', headline: 'Searched /makeArray/ · 3 matches in 2 files' });
    expect((await run(session, 'grep', { pattern: 'makeArray', path: 'lib' })).card.headline).toBe('Searched /makeArray/ in lib · 1 match');
    expect((await run(session, 'grep', { pattern: 'makeArray', mode: 'files_with_matches' })).card.headline).toBe('Searched /makeArray/ · 2 files');
    expect((await run(session, 'grep', { pattern: 'nothing-like-this' })).card.headline).toBe('Searched /nothing-like-this/ · no matches');
    expect((await run(session, 'grep', { pattern: 'line', headLimit: 2 })).card.headline).toBe('Searched /line/ · 2+ matches');
    expect((await run(session, 'glob', { pattern: '**/*.js' })).card.headline).toBe('Found 2 files matching **/*.js');
    expect((await run(session, 'glob', { pattern: '*.go' })).card.headline).toBe('Found no files matching *.go');
    expect((await run(session, 'list', {})).card.headline).toBe('Listed the workspace · 4 entries');
    expect((await run(session, 'list', { path: 'lib' })).card.headline).toBe('Listed lib · 1 entry');
  });

  test('edit, write, delete: the change with its +/− lines, and the diff stays on the card', async () => {
    const root = makeWorkspace({ 'index.js': INDEX, 'old.txt': 'bye\n' });
    const session = makeSession(root);
    await session.call('read', { path: 'index.js' });
    const edited = await run(session, 'edit', { path: 'index.js', oldString: 'line 2\n', newString: 'line two\nline 2a\nline 2b\nline 2c\n' });
    expect(edited.card).toMatchObject({ status: 'ok', headline: 'Edited index.js +4 −1', path: 'index.js' });
    expect(edited.card.diff).toContain('+line two');
    expect(edited.card.diff?.startsWith('--- a/index.js\n+++ b/index.js\n@@ -1,5 +1,8 @@')).toBe(true);
    const all = await run(session, 'edit', { path: 'index.js', oldString: 'line', newString: 'row', replaceAll: true });
    expect(all.card.headline).toMatch(/^Edited index\.js \+\d+ −\d+ · 41 replacements$/);

    const created = await run(session, 'write', { path: 'src/new.txt', content: 'a\nb\nc\n' });
    expect(created.card).toMatchObject({ status: 'ok', headline: 'Created src/new.txt +3 −0', path: 'src/new.txt' });
    await session.call('read', { path: 'old.txt' });
    expect((await run(session, 'write', { path: 'old.txt', content: 'hello\n' })).card.headline).toBe('Wrote old.txt +1 −1');
    const deleted = await run(session, 'delete', { path: 'old.txt' });
    expect(deleted.card).toMatchObject({ status: 'ok', headline: 'Deleted old.txt · kept in the trash', diff: '--- a/old.txt\n+++ b/old.txt\n@@ -1,1 +0,0 @@\n-hello' });
    expect(deleted.card.path).toBeUndefined(); // nothing left to open
  });

  test("the person's edited version: the card shows what was written, not the model's proposal", async () => {
    const root = makeWorkspace({ 'notes.txt': 'one\n' });
    const session = makeSession(root, async () => ({ approved: true, edited: 'one\nmine\n' }));
    await session.call('read', { path: 'notes.txt' });
    const { card } = await run(session, 'edit', { path: 'notes.txt', oldString: 'one', newString: 'ONE' });
    expect(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8')).toBe('one\nmine\n');
    expect(card.headline).toBe('Edited notes.txt (your version) +1 −0');
    expect(card.diff).toBe('--- a/notes.txt\n+++ b/notes.txt\n@@ -1,1 +1,2 @@\n one\n+mine');
  });

  test("bash: the command, how it ended and how long it took, with the model's description", async () => {
    const session = makeSession(makeWorkspace());
    expect(plannedCard('bash', { command: 'npm test', description: 'Run the unit tests' })).toEqual({ headline: 'Run `npm test`', detail: 'Run the unit tests' });
    const failed = await run(session, 'bash', { command: 'echo failing >&2; exit 1', description: 'Fail on purpose' });
    expect(failed.card).toMatchObject({ status: 'error', headline: 'Ran `echo failing >&2; exit 1` · exit 1', detail: 'Fail on purpose' });
    expect(failed.card.durationMs).toBeGreaterThanOrEqual(0);
    expect((await run(session, 'bash', { command: 'true' })).card).toMatchObject({ status: 'ok', headline: 'Ran `true` · exit 0' });
    const long = `echo ${'x'.repeat(100)}\necho second line`;
    expect((await run(session, 'bash', { command: long })).card.headline).toBe(`Ran \`echo ${'x'.repeat(54)}…\` · exit 0`);
    expect((await run(session, 'bash', { command: 'sleep 5', timeout_seconds: 1 })).card).toMatchObject({ status: 'error', headline: 'Ran `sleep 5` · timed out after 1 s' });
  }, 30_000);

  test('a delegated agent reads as who was asked, with the prompt as its second line', async () => {
    const bin = tempDir();
    fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\necho done\n', { mode: 0o755 });
    const session = makeSession(makeWorkspace(), undefined, { env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` } });
    expect((await run(session, 'agent_claude', { prompt: 'Fix the tests' })).card).toMatchObject({ status: 'ok', headline: 'Ran Claude Code · exit 0', detail: 'Fix the tests' });
  }, 30_000);

  test('todos, questions and plan mode', async () => {
    const root = makeWorkspace();
    const state = new ConversationState();
    const answers: Approver = async () => ({ approved: true });
    const session = new CallPipeline(
      builtinRegistry(),
      makeContext(root, { todos: new TodoStore(root), ask: async () => ({ answers: { lang: 'TypeScript' } }) }),
      answers,
      DEFAULT_PERMISSIONS,
      state,
    );
    expect((await run(session, 'todowrite', { title: 'Write the tests' })).card.headline).toBe('Added todo todo-1: Write the tests · 0 of 1 done');
    expect((await run(session, 'todowrite', { id: 'todo-1', status: 'completed' })).card.headline).toBe('Updated todo todo-1: Write the tests · 1 of 1 done');
    expect(plannedCard('todowrite', { id: 'todo-1', status: 'completed' })?.headline).toBe('Update todo todo-1 → completed');
    expect((await run(session, 'todoread', {})).card.headline).toBe('Read the todo list · 1 todo');
    const question = { questions: [{ id: 'lang', question: 'Which language?', type: 'text' }] };
    expect(plannedCard('askuserquestion', question)?.headline).toBe('Ask you 1 question');
    expect((await run(session, 'askuserquestion', question)).card.headline).toBe('Asked you · 1 answer');
    expect((await run(session, 'enterplanmode', { reason: 'A big change' })).card).toMatchObject({ status: 'ok', headline: 'Entered plan mode: Peon only reads and plans', detail: 'A big change' });
  });

  test('denied by you (with your message), denied by a rule, and cancelled read as such, never as errors', async () => {
    const root = makeWorkspace();
    const deny: Approver = async () => ({ approved: false, message: 'not in this folder' });
    const denied = await run(makeSession(root, deny), 'write', { path: 'denied.txt', content: 'x' });
    expect(denied.card).toEqual({ status: 'denied', headline: 'Write denied.txt', detail: 'Denied by you: not in this folder' });
    expect((await run(makeSession(root, async () => ({ approved: false })), 'bash', { command: 'touch y' })).card).toMatchObject({ status: 'denied', detail: 'Denied by you' });

    const rules = { ...DEFAULT_PERMISSIONS, rules: { ...DEFAULT_PERMISSIONS.rules, bash: 'deny' as const }, sources: { bash: 'peon.permission.rules (user): bash -> deny' } };
    const ruled = await run(new CallPipeline(builtinRegistry(), makeContext(root), async () => ({ approved: true }), rules), 'bash', { command: 'ls' });
    expect(ruled.card).toMatchObject({ status: 'denied', headline: 'Run `ls`' });
    expect(ruled.card.detail).toMatch(/^Denied by /);

    const stopped = new AbortController();
    stopped.abort();
    const cancelled = await run(makeSession(root, undefined, { signal: stopped.signal }), 'read', { path: 'a.txt' });
    expect(cancelled.card).toEqual({ status: 'cancelled', headline: 'Read a.txt', path: 'a.txt' });
    // The loop's own refusal after Stop has no permission at all: cancelled too.
    expect(finishedCard('bash', { command: 'npm test' }, { ok: false, error: { code: 'cancelled', message: 'The user stopped the run before this call; nothing ran.' } })).toEqual({ status: 'cancelled', headline: 'Run `npm test`' });
  });

  test('a tool that words its own result (web, MCP, skills, memory, subagents) keeps its headline', () => {
    const ok = (headline: string): ToolCallOutcome => ({ tool: 'x', ok: true, output: '', headline, data: {}, risk: 'read_only', permission: { decision: 'allow', mode: 'allow', source: 'default', reasons: [], grantable: [], sessionGrants: [] } });
    expect(finishedCard('webfetch', { url: 'https://example.org/docs' }, ok('Fetched example.org/docs · 34 KB → Markdown'))).toEqual({ status: 'ok', headline: 'Fetched example.org/docs · 34 KB → Markdown' });
    expect(finishedCard('everything__echo', { message: 'hi' }, ok('everything › echo · 8 B'))).toEqual({ status: 'ok', headline: 'everything › echo · 8 B' });
    expect(finishedCard('task', { name: 'scout', subagent_type: 'explorer', prompt: 'Look around' }, ok('scout (explorer) completed · 2 turns'))).toEqual({ status: 'ok', headline: 'scout (explorer) completed · 2 turns', detail: 'Look around' });
    // An MCP tool has no sentence of its own before it ends: its card names it.
    expect(plannedCard('everything__echo', { message: 'hi' })).toBeUndefined();
    for (const [name, args, headline] of [
      ['webfetch', { url: 'https://example.org/docs' }, 'Fetch https://example.org/docs'],
      ['websearch', { query: 'svelte 5 runes' }, 'Search the web for “svelte 5 runes”'],
      ['read_skill', { name: 'release-checks' }, 'Read the skill release-checks'],
      ['loadskill', { name: 'release-checks' }, 'Load the skill release-checks'],
      ['mem-search', { query: 'auth' }, 'Search memory for “auth”'],
      ['mem-read', { id: 'obs-9f3a1b' }, 'Read memory obs-9f3a1b'],
      ['taskstatus', {}, 'Check on the subagents'],
      ['exitplanmode', {}, 'Propose the plan'],
      ['glob', { pattern: '**/*.ts', path: 'src' }, 'Find files matching **/*.ts in src'],
      ['list', { path: 'src' }, 'List src'],
      ['delete', { path: 'a.txt' }, 'Delete a.txt'],
      ['edit', { path: 'a.txt' }, 'Edit a.txt'],
    ] as const) {
      expect(plannedCard(name, args)?.headline).toBe(headline);
    }
  });

  test('model-written text in a sentence is one line, bounded, with hidden characters shown', () => {
    expect(plannedCard('bash', { command: 'echo \u202Eevil' })?.headline).toBe('Run `echo ⟨U+202E⟩evil`');
    expect(plannedCard('read', {})?.headline).toBe('Read (no path)');
    expect(diffStat('not a diff')).toBe('');
    expect(diffStat('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c')).toBe('+2 −1');
  });
});

test('Stop while the card waits: the call reads cancelled, not denied by you', async () => {
  const stop = new AbortController();
  // The card is up, and the person presses Stop: the broker withdraws it as denied.
  const waiting: Approver = (_request, signal) => {
    const answer = new Promise<ApprovalReply>((resolve) => signal.addEventListener('abort', () => resolve({ approved: false, message: 'The turn was stopped before anyone answered.' })));
    stop.abort();
    return answer;
  };
  const { outcome, card } = await run(makeSession(makeWorkspace(), waiting, { signal: stop.signal }), 'bash', { command: 'touch x' });
  expect(outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  expect(card).toEqual({ status: 'cancelled', headline: 'Run `touch x`' });
});
