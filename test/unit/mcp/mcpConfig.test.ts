// MCP configuration over the real files in test/fixtures/mcp (copied byte for byte from
// public repositories: JSONC comments, trailing commas, inputs, envFile, ${VAR:-default}).
// Their servers are never started: they name real remote hosts and packages.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { mcpConfig, parseClaudeMcp, parseUserMcp, parseVsCodeMcp } from '../../../src/core/mcp/mcpConfig';
import { expandServer } from '../../../src/core/mcp/mcpVariables';
import { approvalHash } from '../../../src/core/mcp/serverApproval';
import { makeWorkspace } from '../tools/toolTestContext';

const fixture = (name: string): string => fs.readFileSync(path.resolve(__dirname, '../../fixtures/mcp', name), 'utf8');

test('.vscode/mcp.json with comments, a trailing comma, inputs and two transports', () => {
  const text = fixture('vscode-mcp-1.json');
  expect(() => JSON.parse(text)).toThrow(); // strict JSON cannot read it
  const config = parseVsCodeMcp(text);
  expect(config.problems).toEqual([]);
  expect(config.servers).toEqual([
    { name: 'remote-mcp', source: '.vscode/mcp.json', project: true, variables: 'vscode', inputs: [], transport: { kind: 'http', url: 'http://localhost:3001/sse', headers: {}, sse: true } },
    {
      name: 'stdio-mcp',
      source: '.vscode/mcp.json',
      project: true,
      variables: 'vscode',
      inputs: [{ id: 'youtube_api_key', description: 'YouTube API Key', password: true }],
      transport: { kind: 'stdio', command: 'node', args: ['mcp-stdio/build/index.js'], env: { YOUTUBE_API_KEY: '${input:youtube_api_key}' } },
    },
  ]);
});

test('an input in the middle of a URL and in a header; inputs listed before servers', () => {
  const [server] = parseVsCodeMcp(fixture('vscode-mcp-2.json')).servers;
  expect(server!.transport).toEqual({ kind: 'http', url: 'https://${input:home-assistant-domain}/mcp_server/sse', headers: { Authorization: 'Bearer ${input:home-assistant-token}' }, sse: false });
  expect(server!.inputs.map((i) => i.id)).toEqual(['home-assistant-domain', 'home-assistant-token']);
  const missing = expandServer(server!, { home: '/home/u', env: {}, input: (id) => (id === 'home-assistant-domain' ? 'ha.example.org' : undefined) });
  expect(missing).toEqual({ ok: false, missingInputs: ['home-assistant-token'], problems: [] });
  const filled = expandServer(server!, { home: '/home/u', env: {}, input: (id) => ({ 'home-assistant-domain': 'ha.example.org', 'home-assistant-token': 't0k' })[id] });
  expect(filled).toEqual({ ok: true, transport: { kind: 'http', url: 'https://ha.example.org/mcp_server/sse', headers: { Authorization: 'Bearer t0k' }, sse: false } });
});

test('envFile with ${workspaceFolder}; .mcp.json with ${VAR} and ${VAR:-default}', () => {
  const [nova] = parseVsCodeMcp(fixture('vscode-mcp-3.json')).servers;
  expect(expandServer(nova!, { workspaceFolder: '/ws', home: '/h', env: {}, input: () => undefined })).toMatchObject({ ok: true, transport: { envFile: '/ws/.env' } });
  expect(expandServer(nova!, { home: '/h', env: {}, input: () => undefined })).toEqual({ ok: false, missingInputs: [], problems: ['${workspaceFolder} needs an open folder'] });

  const [claude] = parseClaudeMcp(fixture('claude-mcp-1.json')).servers;
  expect(claude!.variables).toBe('claude');
  expect(expandServer(claude!, { home: '/h', env: { NOVA_HOST: 'h', NOVA_INDEX_USER: 'u', NOVA_INDEX_PASSWORD: 'p', NOVA_CMS_USER: 'c' }, input: () => undefined })).toEqual({
    ok: false,
    missingInputs: [],
    problems: ['the environment variable NOVA_CMS_PASSWORD is not set (and ${NOVA_CMS_PASSWORD} has no default)'],
  });
  const [context7] = parseClaudeMcp(fixture('claude-mcp-2.json')).servers;
  expect(expandServer(context7!, { home: '/h', env: {}, input: () => undefined })).toEqual({ ok: true, transport: { kind: 'http', url: 'https://mcp.context7.com/mcp', headers: { Authorization: '' }, sse: false } });
  expect(parseClaudeMcp(fixture('claude-mcp-3.json')).servers.map((s) => s.name)).toEqual(['sentry', 'sentry-dev']);
});

test('a broken file, a bad entry and an unknown variable are each a problem with its reason, never a crash', () => {
  expect(parseVsCodeMcp('{ "servers": ').problems[0]).toMatchObject({ source: '.vscode/mcp.json', reason: expect.stringMatching(/^not valid JSON with comments/) });
  expect(parseVsCodeMcp('{"servers": {"a": {"type": "websocket"}, "b": {"command": ""}, "c": {"url": 5}, "d": {"command": "x", "env": {"K": {}}}}}').problems.map((p) => [p.server, p.reason])).toEqual([
    ['a', 'type "websocket" is not stdio, http or sse'],
    ['b', 'a stdio server needs a `command`'],
    ['c', 'type undefined is not stdio, http or sse'],
    ['d', 'env.K must be a string'],
  ]);
  const [odd] = parseUserMcp({ odd: { command: '${command:pick}' } }).servers;
  expect(expandServer(odd!, { home: '/h', env: {}, input: () => undefined })).toEqual({ ok: false, missingInputs: [], problems: ['${command:pick} is not a variable Peon knows'] });
});

test("the person's servers come first: a project server of the same name is skipped, saying where the first is", () => {
  const root = makeWorkspace({ '.vscode/mcp.json': fixture('vscode-mcp-1.json'), '.mcp.json': '{"mcpServers": {"stdio-mcp": {"command": "evil"}, "extra": {"command": "node", "args": ["x.js"]}}}' });
  const config = mcpConfig({ 'stdio-mcp': { command: 'node', args: ['mine.js'] } }, root);
  expect(config.servers.map((s) => [s.name, s.source])).toEqual([
    ['stdio-mcp', 'user'],
    ['remote-mcp', '.vscode/mcp.json'],
    ['extra', '.mcp.json'],
  ]);
  expect(config.problems.map((p) => `${p.source} ${p.server}: ${p.reason}`)).toEqual([
    '.vscode/mcp.json stdio-mcp: a server named "stdio-mcp" is already configured in your settings (peon.mcp.servers)',
    '.mcp.json stdio-mcp: a server named "stdio-mcp" is already configured in your settings (peon.mcp.servers)',
  ]);
  expect(config.servers[0]!.project).toBe(false);
  expect(config.servers[1]!.project).toBe(true);
});

test('the approval hash changes with anything that runs — command, args, env, envFile content, cwd, URL, headers — and not with key order', () => {
  const [base] = parseUserMcp({ s: { command: 'node', args: ['a.js'], env: { A: '1', B: '2' }, envFile: '.env', cwd: 'srv' } }).servers;
  const h = approvalHash(base!, Buffer.from('TOKEN=1\n'));
  const variant = (entry: Record<string, unknown>, env = Buffer.from('TOKEN=1\n')) => approvalHash(parseUserMcp({ s: entry }).servers[0]!, env);
  expect(variant({ command: 'node', args: ['a.js'], env: { B: '2', A: '1' }, envFile: '.env', cwd: 'srv' })).toBe(h);
  for (const changed of [
    { command: 'nodejs', args: ['a.js'], env: { A: '1', B: '2' }, envFile: '.env', cwd: 'srv' },
    { command: 'node', args: ['b.js'], env: { A: '1', B: '2' }, envFile: '.env', cwd: 'srv' },
    { command: 'node', args: ['a.js'], env: { A: '1', B: '3' }, envFile: '.env', cwd: 'srv' },
    { command: 'node', args: ['a.js'], env: { A: '1', B: '2' }, envFile: '.env.local', cwd: 'srv' },
    { command: 'node', args: ['a.js'], env: { A: '1', B: '2' }, envFile: '.env', cwd: '.' },
  ]) expect(variant(changed)).not.toBe(h);
  expect(variant({ command: 'node', args: ['a.js'], env: { A: '1', B: '2' }, envFile: '.env', cwd: 'srv' }, Buffer.from('TOKEN=2\n'))).not.toBe(h);
  const http = (entry: Record<string, unknown>) => approvalHash(parseUserMcp({ s: entry }).servers[0]!);
  expect(http({ url: 'https://a.example/mcp', headers: { X: '1' } })).not.toBe(http({ url: 'https://b.example/mcp', headers: { X: '1' } }));
  expect(http({ url: 'https://a.example/mcp', headers: { X: '1' } })).not.toBe(http({ url: 'https://a.example/mcp', headers: { X: '2' } }));
});

test("an http server's `oauth`: a pre-registered client or a metadata document URL, variables filled, bound by the approval", () => {
  const config = parseUserMcp({
    pre: { type: 'http', url: 'https://mcp.example/mcp', oauth: { clientId: 'peon-app', clientSecret: '${input:secret}', scope: 'read write' } },
    cimd: { type: 'http', url: 'https://mcp.example/mcp', oauth: { clientMetadataUrl: 'https://peon.example/oauth/client.json' } },
    orphan: { type: 'http', url: 'https://mcp.example/mcp', oauth: { clientSecret: 's' } },
    plain: { type: 'http', url: 'https://mcp.example/mcp', oauth: { clientMetadataUrl: 'http://peon.example/client.json' } },
    empty: { type: 'http', url: 'https://mcp.example/mcp', oauth: { clientId: '' } },
    wrong: { type: 'http', url: 'https://mcp.example/mcp', oauth: 'yes' },
  });
  expect(config.servers.map((s) => [s.name, s.transport.kind === 'http' ? s.transport.oauth : undefined, s.inputs.map((i) => i.id)])).toEqual([
    ['pre', { clientId: 'peon-app', clientSecret: '${input:secret}', scope: 'read write' }, ['secret']],
    ['cimd', { clientMetadataUrl: 'https://peon.example/oauth/client.json' }, []],
  ]);
  expect(config.problems.map((p) => `${p.server}: ${p.reason}`)).toEqual([
    'orphan: `oauth.clientSecret` needs the `oauth.clientId` it belongs to',
    'plain: `oauth.clientMetadataUrl` must be an https URL with a path',
    'empty: `oauth.clientId` must be a non-empty string',
    'wrong: `oauth` must be an object',
  ]);
  const filled = expandServer(config.servers[0]!, { home: '/home/u', env: {}, input: (id) => (id === 'secret' ? 's3cret' : undefined) });
  expect(filled).toEqual({ ok: true, transport: { kind: 'http', url: 'https://mcp.example/mcp', headers: {}, sse: false, oauth: { clientId: 'peon-app', clientSecret: 's3cret', scope: 'read write' } } });
  const hash = (oauth?: unknown) => approvalHash(parseUserMcp({ s: { type: 'http', url: 'https://mcp.example/mcp', ...(oauth ? { oauth } : {}) } }).servers[0]!);
  expect(hash({ clientId: 'a' })).not.toBe(hash({ clientId: 'b' }));
  expect(hash({ clientId: 'a' })).not.toBe(hash());
  expect(hash({ clientId: 'a', scope: 'x' })).toBe(hash({ scope: 'x', clientId: 'a' }));
});
