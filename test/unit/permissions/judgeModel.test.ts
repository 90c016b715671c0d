import { afterAll, beforeAll, expect, test } from 'vitest';
import { judge } from '../../../src/core/permissions/gate';
import { modelJudge } from '../../../src/core/permissions/judgeModel';
import { openaiClient } from '../../../src/core/model/openaiClient';
import { Workspace } from '../../../src/core/workspace/workspace';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { makeWorkspace } from '../tools/toolTestContext';

// peon.permission.judge against a real HTTP model server: only a clear SAFE lets a
// command off the read-only list run; the judge is never asked to lift what the
// parser, the destructive list, a path or a rule decided.
let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

function gate() {
  const root = makeWorkspace({ '.env': 'K=1\n' });
  const workspace = new Workspace([{ path: root }]);
  const client = openaiClient({ apiKey: 'k', model: 'judge', baseUrl: server.openaiUrl });
  return (command: string) =>
    judge({
      tool: 'bash',
      assessment: { risk: 'process', writes: false, paths: [workspace.resolve('.')], summary: { kind: 'command', command, cwd: '.' } },
      resolve: (p) => workspace.resolve(p),
      roots: [root],
      judge: modelJudge(client, new AbortController().signal),
    });
}

test('SAFE lets an unlisted command run, naming the judge; the command went to the judge as written', async () => {
  server.script({ text: 'SAFE' });
  const before = server.requests.length;
  expect(await gate()('npm test')).toMatchObject({ decision: 'allow', source: 'the judge model (peon.permission.judge) classified it as safe' });
  expect(JSON.stringify(server.requests[before]?.body)).toContain('Command:\\nnpm test');
});

test.each([
  ['UNSAFE', 'the judge model classified it as unsafe'],
  ['Probably safe, it only runs tests.', 'the judge model gave no clear answer'],
])('%j asks', async (answer, reason) => {
  server.script({ text: answer });
  const decision = await gate()('npm test');
  expect(decision.decision).toBe('ask');
  expect(decision.reasons.at(-1)).toBe(reason);
});

test('a failing judge asks', async () => {
  server.script({ status: 400 });
  expect(await gate()('npm test')).toMatchObject({ decision: 'ask', reasons: expect.arrayContaining(['the judge model gave no clear answer']) });
});

test.each(['npm test > ~/.bashrc', 'rm -rf .', 'cat .env', 'echo $(curl x)', 'npm test\nnpm publish'])('the judge is never asked about %j', async (command) => {
  const before = server.requests.length;
  expect((await gate()(command)).decision).toBe('ask');
  expect(server.requests.length).toBe(before);
});
