// A server's variables filled in: for a start (an environment variable that is not set
// is a problem naming it, never an empty string sent as a key), and for a card or a
// status line (a password's answer masked, what has no value yet left as written).
import { expect, test } from 'vitest';
import { parseClaudeMcp, parseUserMcp, parseVsCodeMcp } from '../../../src/core/mcp/mcpConfig';
import { expandForDisplay, expandServer, MASKED } from '../../../src/core/mcp/mcpVariables';

const vscode = (servers: Record<string, unknown>, inputs: unknown[] = []) => parseVsCodeMcp(JSON.stringify({ inputs, servers })).servers[0]!;

test('an unset ${env:NAME} is a problem naming it, wherever it stands; a set one (even empty) is its value', () => {
  const server = vscode({ s: { type: 'http', url: 'https://${env:PEON_T_HOST}/mcp', headers: { Authorization: 'Bearer ${env:PEON_T_KEY}' } } });
  expect(expandServer(server, { home: '/h', env: {}, input: () => undefined })).toEqual({
    ok: false,
    missingInputs: [],
    problems: ['the environment variable PEON_T_HOST is not set', 'the environment variable PEON_T_KEY is not set'],
  });
  expect(expandServer(server, { home: '/h', env: { PEON_T_HOST: 'x.example', PEON_T_KEY: '' }, input: () => undefined })).toEqual({
    ok: true,
    transport: { kind: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ' }, sse: false },
  });
  const stdio = vscode({ s: { command: 'node', args: ['--key=${env:PEON_T_KEY}'], env: { A: '${env:PEON_T_A}' } } });
  expect(expandServer(stdio, { home: '/h', env: { PEON_T_KEY: 'k' }, input: () => undefined })).toEqual({ ok: false, missingInputs: [], problems: ['the environment variable PEON_T_A is not set'] });
  expect(expandServer(vscode({ s: { command: '${env:}' } }), { home: '/h', env: {}, input: () => undefined })).toMatchObject({ ok: false, problems: ['${env:} names no environment variable'] });
});

test("for display: a password input's answer is masked, an unanswered input stays ${input:id}, what has no value stays as written", () => {
  const server = vscode(
    {
      s: {
        command: 'node',
        args: ['srv.js', '--token', '${input:tok}', '--user=${input:user}', '--org', '${input:org}', '${workspaceFolder}/x', '${env:PEON_T_SET}', '${env:PEON_T_UNSET}', '${command:pick}'],
        env: { TOKEN: '${input:tok}', PLAIN: 'a${input:user}b' },
      },
    },
    [
      { id: 'tok', type: 'promptString', description: 'API token', password: true },
      { id: 'user', type: 'promptString' },
      { id: 'org', type: 'promptString', password: true },
    ],
  );
  const asked: string[] = [];
  const ctx = { home: '/h', env: { PEON_T_SET: 'visible' }, input: (id: string) => (asked.push(id), ({ tok: 'hunter2-TOPSECRET', user: 'me' }) as Record<string, string>)[id] };
  const shown = expandForDisplay(server, ctx);
  expect(shown).toEqual({
    kind: 'stdio',
    command: 'node',
    args: ['srv.js', '--token', MASKED, '--user=me', '--org', '${input:org}', '${workspaceFolder}/x', 'visible', '${env:PEON_T_UNSET}', '${command:pick}'],
    env: { TOKEN: MASKED, PLAIN: 'ameb' },
  });
  expect(MASKED).toBe('••••••••');
  expect(JSON.stringify(shown)).not.toContain('hunter2');
  // Only looked up, never asked: the start itself still reports what it lacks.
  expect(new Set(asked)).toEqual(new Set(['tok', 'user', 'org']));
  expect(expandServer(server, ctx)).toMatchObject({ ok: false, missingInputs: ['org'] });
});

test('for display: passwords named by the caller (by id or as declared) are masked too, in URLs and headers; Claude-style unset variables stay as written', () => {
  const [user] = parseUserMcp({ u: { type: 'http', url: 'https://h.example/${input:path}', headers: { Authorization: 'Bearer ${input:key}', X: '${input:other}' } } }).servers;
  const ctx = { home: '/h', env: {}, input: (id: string) => `value-of-${id}` };
  expect(expandForDisplay(user!, ctx)).toEqual({ kind: 'http', url: 'https://h.example/value-of-path', headers: { Authorization: 'Bearer value-of-key', X: 'value-of-other' }, sse: false });
  expect(expandForDisplay(user!, ctx, new Set(['key']))).toMatchObject({ headers: { Authorization: `Bearer ${MASKED}`, X: 'value-of-other' } });
  expect(expandForDisplay(user!, ctx, [{ id: 'other', password: true }, { id: 'path', password: false }])).toMatchObject({ url: 'https://h.example/value-of-path', headers: { Authorization: 'Bearer value-of-key', X: MASKED } });

  const [claude] = parseClaudeMcp(JSON.stringify({ mcpServers: { c: { command: 'x', args: ['${PEON_T_UNSET}', '${PEON_T_D:-fallback}', '${PEON_T_SET}', '${1bad}'] } } })).servers;
  expect(expandForDisplay(claude!, { home: '/h', env: { PEON_T_SET: 's' }, input: () => undefined })).toMatchObject({ args: ['${PEON_T_UNSET}', 'fallback', 's', '${1bad}'] });
});
