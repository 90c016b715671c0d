import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runAgentTurn } from '../../../src/core/agent/loop';
import type { HistoryItem } from '../../../src/core/model/modelClient';
import { openaiClient } from '../../../src/core/model/openaiClient';
import { PanelSetup, type PanelSetupHooks } from '../../../src/extension/panelSetup';
import { Transcript } from '../../../src/extension/transcript';
import type { HostMessage, NoticeAction, TranscriptEntry } from '../../../src/shared/messages';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { freePort } from '../../vscode/codeServer.mjs';
import { makeSession, makeWorkspace } from '../tools/toolTestContext';

// A message sent before a model is ready waits and goes once one is; a failed request's
// notice offers its way on, and the host does only what that notice offers.
function panel(options: { problem?: { problem: string; key?: boolean }; busy?: boolean } = {}) {
  const posted: HostMessage[] = [];
  const transcript = new Transcript((m) => posted.push(m));
  const ran: string[] = [];
  const did: string[] = [];
  const state = { problem: options.problem, busy: options.busy ?? false };
  const hooks: PanelSetupHooks = {
    problem: async () => state.problem,
    run: async (text) => void ran.push(text),
    busy: () => state.busy,
    selectModel: async () => void did.push('selectModel'),
    setApiKey: async () => void did.push('setApiKey'),
    warn: (text) => did.push(`warn: ${text}`),
  };
  return { setup: new PanelSetup(transcript, hooks), transcript, posted, ran, did, state };
}
const notices = (entries: TranscriptEntry[]) => entries.filter((e) => e.kind === 'notice');

describe('a message sent before a model is ready', () => {
  test('waits with a notice offering the way on; goes, in order, once a model can answer, and the notice goes with it', async () => {
    const { setup, transcript, posted, ran, state } = panel({ problem: { problem: 'No model chosen yet.' } });
    transcript.append({ kind: 'user', text: 'hello, what does this project do?' });
    setup.hold('hello, what does this project do?', { problem: 'No model chosen yet.' });
    transcript.append({ kind: 'user', text: 'and its tests?' });
    setup.hold('and its tests?', { problem: 'No OpenAI API key yet.', key: true });
    expect(notices(transcript.entries)).toEqual([
      { kind: 'notice', id: 'e2', level: 'warning', text: 'No model chosen yet. Your message waits here: it is sent once a model is chosen.', actions: ['selectModel'] },
      { kind: 'notice', id: 'e4', level: 'warning', text: 'No OpenAI API key yet. Your message waits here: it is sent once a model is ready.', actions: ['setApiKey', 'selectModel'] },
    ]);

    await setup.release(); // settings changed, still no model
    expect(ran).toEqual([]);
    expect(setup.holding).toBe(true);

    state.problem = undefined;
    await Promise.all([setup.release(), setup.release()]); // two changes at once send each message once
    expect(ran).toEqual(['hello, what does this project do?', 'and its tests?']);
    expect(notices(transcript.entries)).toEqual([]);
    expect(posted.filter((m) => m.type === 'remove')).toEqual([{ type: 'remove', id: 'e2' }, { type: 'remove', id: 'e4' }]);
    expect(setup.holding).toBe(false);
  });

  test('a new chat drops what waited in the old one', async () => {
    const { setup, ran, state } = panel({ problem: { problem: 'No model chosen yet.' } });
    setup.hold('old', { problem: 'No model chosen yet.' });
    setup.clear();
    state.problem = undefined;
    await setup.release();
    expect(ran).toEqual([]);
  });

  test('the restored chat does not show a notice that was taken away', () => {
    const { setup, transcript, posted } = panel();
    transcript.append({ kind: 'user', text: 'hi' });
    setup.hold('hi', { problem: 'No model chosen yet.' });
    transcript.remove('e2');
    const restored = new Transcript(() => {});
    restored.restore(posted);
    expect(restored.entries).toEqual([{ kind: 'user', id: 'e1', text: 'hi' }]);
  });
});

describe("a notice's buttons", () => {
  const failed = (t: Transcript, actions: NoticeAction[]) => t.append({ kind: 'notice', level: 'warning', text: 'The model request failed.', actions });

  test('Retry sends the last message again, once, in place of its notice; not while a turn runs, nor once a later message was sent', async () => {
    const { setup, transcript, ran, state } = panel();
    transcript.append({ kind: 'user', text: 'explain index.js' });
    const notice = failed(transcript, ['retry', 'selectModel']);
    state.busy = true;
    await setup.action(notice, 'retry');
    expect(ran).toEqual([]);
    state.busy = false;
    await setup.action(notice, 'retry');
    expect(ran).toEqual(['explain index.js']);
    expect(notices(transcript.entries)).toEqual([]);

    const older = failed(transcript, ['retry']);
    transcript.append({ kind: 'user', text: 'something else' });
    await setup.action(older, 'retry');
    expect(ran).toEqual(['explain index.js']);
  });

  test('Set API Key and Select Model are the host\'s; an action the notice does not offer, or no such notice, does nothing', async () => {
    const { setup, transcript, did, ran } = panel();
    transcript.append({ kind: 'user', text: 'hi' });
    const auth = failed(transcript, ['setApiKey', 'retry']);
    await setup.action(auth, 'setApiKey');
    await setup.action(auth, 'selectModel');
    await setup.action('e99', 'retry');
    const plain = transcript.append({ kind: 'notice', level: 'info', text: 'Stopped.' });
    await setup.action(plain, 'retry');
    expect(did).toEqual([
      'setApiKey',
      `warn: Ignored a notice action (selectModel) that no notice ${auth} offers.`,
      'warn: Ignored a notice action (retry) that no notice e99 offers.',
      `warn: Ignored a notice action (retry) that no notice ${plain} offers.`,
    ]);
    expect(ran).toEqual([]);
  });
});

describe('a failed request in the transcript', () => {
  let server: Awaited<ReturnType<typeof startModelServer>>;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server.close());

  async function failedTurn(baseUrl: string, history: HistoryItem[] = []): Promise<TranscriptEntry[]> {
    const transcript = new Transcript(() => {});
    await runAgentTurn(history, 'hi', {
      client: openaiClient({ apiKey: 'sk-wrong', model: 'm', baseUrl }),
      session: makeSession(makeWorkspace()),
      system: 'sys',
      tools: [],
      signal: new AbortController().signal,
      retry: { attempts: 1 },
      onEvent: (e) => transcript.apply(e),
    });
    return notices(transcript.entries);
  }

  test('a refused key says its status once and offers Set API Key and Retry', async () => {
    server.script({ status: 401 });
    expect(await failedTurn(server.openaiUrl)).toEqual([{ kind: 'notice', id: expect.any(String), level: 'warning', text: 'The model request failed. openai answered 401: scripted 401', actions: ['setApiKey', 'retry'] }]);
  });

  test('a server that cannot be reached is named, with Retry and Select Model; the retried prompt is not in the history twice', async () => {
    const history: HistoryItem[] = [];
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const shown = await failedTurn(closed, history);
    expect(shown).toEqual([{ kind: 'notice', id: expect.any(String), level: 'warning', text: `The model request failed. openai could not be reached at ${closed}: connection refused.`, actions: ['retry', 'selectModel'] }]);
    server.script({ text: 'Answered.' });
    await runAgentTurn(history, 'hi', { client: openaiClient({ apiKey: 'k', model: 'm', baseUrl: server.openaiUrl }), session: makeSession(makeWorkspace()), system: 'sys', tools: [], signal: new AbortController().signal, onEvent: () => {} });
    expect(history.map((h) => h.role)).toEqual(['user', 'assistant']);
  });

  test('any other failure offers Retry', async () => {
    server.script({ status: 400 });
    expect((await failedTurn(server.openaiUrl))[0]).toMatchObject({ text: 'The model request failed. openai answered 400: scripted 400', actions: ['retry'] });
  });
});
