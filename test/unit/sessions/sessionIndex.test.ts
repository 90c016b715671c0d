// The history view's list and search over saved sessions, in real temp folders: titles
// from the conversation, rename, the index beside the files, a content search that reads
// lazily and within its budget, and the export as Markdown.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SessionIndex } from '../../../src/core/sessions/sessionIndex';
import { sessionMarkdown } from '../../../src/core/sessions/sessionMarkdown';
import { SessionStore } from '../../../src/core/sessions/sessionStore';
import { titleFrom } from '../../../src/core/sessions/sessionTitle';
import { Transcript } from '../../../src/extension/transcript';
import { tempDir } from '../tools/toolTestContext';

/** A chat as the panel records it: each message a view line (an answer streamed in deltas), and the model history. */
function chat(store: SessionStore, messages: readonly string[], cost?: number): string {
  const id = store.create(messages[0]!).id;
  let n = 1;
  for (const [i, text] of messages.entries()) {
    const entryId = `e${n++}`;
    store.append(id, { type: 'history', item: { role: i % 2 === 0 ? 'user' : 'assistant', text, ...(i % 2 === 0 ? {} : { toolCalls: [] }) } as never });
    if (i % 2 === 0) store.append(id, { type: 'view', message: { type: 'append', entry: { kind: 'user', id: entryId, text } } });
    else {
      store.append(id, { type: 'view', message: { type: 'append', entry: { kind: 'assistant', id: entryId, text: '' } } });
      for (const word of text.split(/(?<= )/)) store.append(id, { type: 'view', message: { type: 'delta', id: entryId, text: word } });
    }
  }
  if (cost !== undefined) store.append(id, { type: 'view', message: { type: 'usage', contextTokens: 10, contextWindow: 100, inputTokens: 5, outputTokens: 5, cacheReadTokens: 0, chatCost: cost } });
  return id;
}

const tick = () => new Promise((r) => setTimeout(r, 15));

describe('titles', () => {
  test.each([
    ['Fix the flaky login test. It fails on CI every other run.', 'Fix the flaky login test'],
    ['hello, what does this project do?', 'hello, what does this project do?'],
    ['Hi. Can you look at index.js?', 'Hi. Can you look at index.js?'],
    ['see e.g. index.js for the parser', 'see e.g. index.js for the parser'],
    ['\n\n  explain this selection\n\nthe rest of it', 'explain this selection'],
    ['Fix the\nflaky test', 'Fix the flaky test'],
    ['Quick question:\nCan you fix the parser?', 'Quick question: Can you fix the parser?'],
    ['Refactor the parser so that it handles every kind of nested bracket and also make sure the error messages say where the problem is', 'Refactor the parser so that it handles every kind of nested bracket and also make sure the error…'],
    ['   ', 'New chat'],
  ])('%j is titled %j', (text, title) => {
    expect(titleFrom(text)).toBe(title);
    expect(titleFrom(text).length).toBeLessThanOrEqual(100);
  });

  test('a session takes its title from its first message; a rename is kept, and does not move it up the list', async () => {
    const store = new SessionStore(tempDir());
    const older = chat(store, ['Fix the flaky login test. It fails on CI.', 'Done.']);
    await tick();
    const newer = chat(store, ['Add a README section.', 'Added.']);
    expect(store.list().map((s) => s.title)).toEqual(['Add a README section', 'Fix the flaky login test']);
    expect(store.rename(older, '  Login test:\n flaky on CI ')).toBe('Login test: flaky on CI');
    expect(store.list().map((s) => [s.id, s.title])).toEqual([
      [newer, 'Add a README section'],
      [older, 'Login test: flaky on CI'],
    ]);
    expect(store.load(older).meta.title).toBe('Login test: flaky on CI');
    expect(() => store.rename(older, ' \n ')).toThrow(/cannot be empty/);
    expect(() => store.rename('../x', 'y')).toThrow(/Not a session id/);
  });
});

describe('the index', () => {
  test('lists date, message count and cost; kept in index.json and read again only for files that changed', () => {
    const dir = tempDir();
    const store = new SessionStore(dir);
    const a = chat(store, ['First question.', 'First answer.'], 0.0123);
    const b = chat(store, ['Second question.', 'Second answer.', 'More?', 'No.']);
    const listed = new Map(store.list().map((s) => [s.id, s]));
    expect(listed.get(a)).toMatchObject({ title: 'First question', messages: 2, cost: 0.0123 });
    expect(listed.get(b)).toMatchObject({ title: 'Second question', messages: 4 });
    expect(listed.get(b)!.cost).toBeUndefined();
    expect(Date.parse(listed.get(a)!.createdAt)).not.toBeNaN();

    // A new index over the same folder reads index.json, not the files: a file edited behind
    // its back without changing size or mtime is not read again...
    const file = path.join(dir, `${a}.jsonl`);
    const when = Math.floor(Date.now() / 1000);
    fs.utimesSync(file, when, when);
    const size = fs.statSync(file).size;
    store.list();
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('"title":"First question"', '"title":"Xirst question"'));
    fs.utimesSync(file, when, when);
    expect(fs.statSync(file).size).toBe(size);
    const fresh = new SessionStore(dir);
    expect(fresh.list().find((s) => s.id === a)?.title).toBe('First question');
    // ...while one that grew is.
    fresh.append(a, { type: 'view', message: { type: 'append', entry: { kind: 'user', id: 'e9', text: 'again' } } });
    expect(fresh.list().find((s) => s.id === a)).toMatchObject({ title: 'Xirst question', messages: 3 });
  });

  test('a deleted session leaves the index; an unreadable index is rebuilt from the files', () => {
    const dir = tempDir();
    const store = new SessionStore(dir);
    const a = chat(store, ['Keep me.', 'Kept.']);
    const b = chat(store, ['Delete me.', 'Gone.']);
    store.list();
    store.delete(b);
    expect(store.list().map((s) => s.id)).toEqual([a]);
    fs.writeFileSync(path.join(dir, 'index.json'), '{ not json');
    expect(new SessionStore(dir).list().map((s) => s.id)).toEqual([a]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')).sessions.map((s: { id: string }) => s.id)).toEqual([a]);
  });
});

describe('search', () => {
  test('by content, not only the title: a word only in a later message finds its chat, with where it was said', async () => {
    const store = new SessionStore(tempDir());
    const plain = chat(store, ['Rename the config loader.', 'Renamed.']);
    await tick();
    const deep = chat(store, ['Look at the build.', 'It is green.', 'Now check the zebrafish fixture loader please.', 'The Zebrafish fixture is fine.']);
    await tick();
    chat(store, ['Unrelated.', 'Yes.']);
    const found = store.search('zebrafish');
    expect(found.hits.map((h) => h.id)).toEqual([deep]);
    expect(found.hits[0]!.snippet).toContain('zebrafish fixture loader');
    expect(found.titlesOnly).toBe(0);
    // Every word must be there, anywhere in the title or the messages; case does not matter.
    expect(store.search('LOADER rename').hits.map((h) => h.id)).toEqual([plain]);
    expect(store.search('loader').hits.map((h) => h.id)).toEqual([deep, plain]);
    expect(store.search('loader absent-word').hits).toEqual([]);
    // A title match needs no snippet.
    expect(store.search('build').hits[0]).not.toHaveProperty('snippet');
    // An empty query lists them all.
    expect(store.search('  ').hits).toHaveLength(3);
  });

  test('a message cut by an edit is not found any more', () => {
    const store = new SessionStore(tempDir());
    const id = chat(store, ['Start here.', 'Ok.', 'Use the walrus operator.', 'Fine.']);
    expect(store.search('walrus').hits).toHaveLength(1);
    store.append(id, { type: 'view', message: { type: 'remove', id: 'e3' } });
    expect(store.search('walrus').hits).toHaveLength(0);
  });

  test('reads lazily and within its budget: past it, older chats are matched by title only, and the next search goes on from the cache', async () => {
    const dir = tempDir();
    const store = new SessionStore(dir);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(chat(store, [`Chat number ${i}.`, `Answer ${i} mentions the okapi ${'padding '.repeat(200)}`]));
      await tick();
    }
    const size = fs.statSync(path.join(dir, `${ids[0]}.jsonl`)).size;
    // A budget for about two files per search.
    const index = new SessionIndex(dir, /^[0-9a-z]+-[0-9a-f]{6}$/, { searchBytes: size * 2, cacheChars: 10_000_000 });
    index.list();
    // Listing read every file once (a new index), and kept their text: the search reads none.
    expect(index.search('okapi').hits).toHaveLength(6);

    const saved = new SessionIndex(dir, /^[0-9a-z]+-[0-9a-f]{6}$/, { searchBytes: size * 2, cacheChars: 10_000_000 });
    saved.list(); // from index.json: no file read, nothing cached
    const first = saved.search('okapi');
    expect(first.hits.map((h) => h.id)).toEqual([ids[5], ids[4]]);
    expect(first.titlesOnly).toBe(4);
    // Each search reads on from where the cache ends, newest first.
    expect(saved.search('okapi').hits).toHaveLength(4);
    expect(saved.search('okapi')).toMatchObject({ titlesOnly: 0, total: 6 });
    expect(saved.search('okapi').hits).toHaveLength(6);

    // With nothing more to read, a title still finds an older chat.
    const none = new SessionIndex(dir, /^[0-9a-z]+-[0-9a-f]{6}$/, { searchBytes: 0, cacheChars: 10_000_000 });
    none.list();
    expect(none.search('number 0')).toMatchObject({ hits: [{ id: ids[0], title: 'Chat number 0' }], titlesOnly: 5 });
  });

  test('the cache is bounded: the least recently used text goes first', async () => {
    const dir = tempDir();
    const store = new SessionStore(dir);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(chat(store, [`Chat ${i}.`, `The word capybara ${'x'.repeat(1000)}`]));
      await tick();
    }
    // Room for about two sessions' text (each kept twice: as written and in lower case).
    const index = new SessionIndex(dir, /^[0-9a-z]+-[0-9a-f]{6}$/, { searchBytes: 1, cacheChars: 4500 });
    index.list();
    // The budget allows one file read per search; two were left in the cache by listing.
    expect(index.search('capybara').hits).toHaveLength(3);
  });
});

describe('export', () => {
  test('a session as Markdown: title, date, cost, each message, tool calls as lines, notices as quotes', () => {
    const store = new SessionStore(tempDir());
    const id = chat(store, ['Fix the failing parser test. Now.', 'Fixed it with `x`.'], 0.5);
    store.append(id, { type: 'view', message: { type: 'append', entry: { kind: 'tool', id: 'e9', name: 'bash', args: '{"command":"npm `test`"}', status: 'ok', output: 'ok' } } });
    store.append(id, { type: 'view', message: { type: 'append', entry: { kind: 'notice', id: 'e10', level: 'info', text: 'Stopped.' } } });
    const loaded = store.load(id);
    const transcript = new Transcript(() => {});
    transcript.restore(loaded.view);
    const markdown = sessionMarkdown({ title: loaded.meta.title, createdAt: loaded.meta.createdAt, cost: 0.5 }, transcript.entries);
    expect(markdown).toBe(
      [
        '# Fix the failing parser test',
        '',
        `*Started ${loaded.meta.createdAt} · cost $0.5000. Exported from Peon.*`,
        '',
        '## You',
        '',
        'Fix the failing parser test. Now.',
        '',
        '## Peon',
        '',
        'Fixed it with `x`.',
        '',
        '- *Tool:* bash `` {"command":"npm `test`"} `` (ok)',
        '',
        '> Stopped.',
        '',
      ].join('\n'),
    );
  });
});
