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
    [{ type: 'mcpStart' }],
    [{ type: 'mcpServer', name: 'everything', action: 'approve' }],
    [{ type: 'mcpTool', name: 'everything__echo', enabled: false }],
    [{ type: 'openFile', path: 'src/index.js', line: 12 }],
    [{ type: 'noticeAction', entryId: 'e4', action: 'retry' }],
    [{ type: 'selectModel' }],
    [{ type: 'send', text: 'what does this do?', chips: [{ kind: 'selection', id: 'c1', path: 'index.js', startLine: 3, endLine: 7 }, { kind: 'editor', id: 'editor', path: 'index.js', startLine: 1, endLine: 40, selected: false }] }],
    [{ type: 'addContext', chip: { kind: 'folder', id: 'c2', path: 'src/' } }],
    [{ type: 'addContext', chip: { kind: 'problems', id: 'c3', path: 'broken.json', startLine: 2, endLine: 2 } }],
    [{ type: 'removeContext', id: 'c2' }],
    [{ type: 'findFiles', query: 'ind' }],
    [{ type: 'copyText', text: 'npm test\n' }],
    [{ type: 'insertAtCursor', text: 'const x = 1;' }],
    [{ type: 'removeRule', tool: 'bash', pattern: 'npm run ts --if-present' }],
    [{ type: 'openRules' }],
    [{ type: 'listHistory', query: 'zebrafish loader' }],
    [{ type: 'resumeSession', id: 'm3x9k2a-0a1b2c' }],
    [{ type: 'renameSession', id: 'm3x9k2a-0a1b2c', title: 'Login test: flaky on CI' }],
    [{ type: 'deleteSession', id: 'm3x9k2a-0a1b2c' }],
    [{ type: 'exportSession', id: 'm3x9k2a-0a1b2c' }],
    [{ type: 'queueMessage', text: 'also update the README' }],
    [{ type: 'unqueueMessage', id: 'q1' }],
    [{ type: 'editMessage', entryId: 'e3', text: 'use pnpm instead' }],
    [{ type: 'retryMessage', entryId: 'e8' }],
    [{ type: 'listTrash' }],
    [{ type: 'restoreTrash', id: 'm3x9k2a1-0a1b2c3d' }],
    [{ type: 'openChange', target: { step: '0b6e…-step' }, path: 'src/index.js' }],
    [{ type: 'revertChanges', target: { turn: 'e9' } }],
    [{ type: 'revertChanges', target: { step: 's1' }, paths: ['a.txt'] }],
    [{ type: 'keepChanges', turn: 'e9', paths: ['a.txt'] }],
    [{ type: 'resolveConflict', id: 'c1', path: 'a.txt', choice: 'keep' }],
    [{ type: 'openConflict', id: 'c1', path: 'a.txt', compare: 'since' }],
  ])('accepts %j', (raw) => {
    expect(parseWebviewMessage(raw)).toEqual({ ok: true, message: raw });
  });

  test.each([
    ['an unknown type', { type: 'runCommand', command: 'rm -rf ~' }, /^Invalid discriminator value\. Expected 'ready' \| 'send' \| 'stop' \| 'answer' \| 'openDiff' \| 'revokeGrant' \| 'answerQuestions' \| 'dismissQuestions' \| 'openAgent' \| 'closeAgent' \| 'stopAgent' \| 'remember' \| 'listMemory' \| 'openMemory' \| 'deleteMemory' \| 'mcpStart' \| 'mcpServer' \| 'mcpTool' \| 'editTodo' \| 'openFile' \| 'setup' \| 'noticeAction' \| 'selectModel' \| 'addContext' \| 'removeContext' \| 'findFiles' \| 'copyText' \| 'insertAtCursor' \| 'removeRule' \| 'openRules' \| 'listHistory' \| 'resumeSession' \| 'renameSession' \| 'deleteSession' \| 'exportSession' \| 'queueMessage' \| 'unqueueMessage' \| 'editMessage' \| 'retryMessage' \| 'listTrash' \| 'restoreTrash' | 'openChange' | 'revertChanges' | 'keepChanges' | 'resolveConflict' | 'openConflict' at type$/],
    ['no type', { text: 'hi' }, /^Invalid discriminator value.* at type$/],
    ['a string', 'send', /^Invalid input: expected object, received string$/],
    ['null', null, /^Invalid input: expected object, received null$/],
    ['a blank message', { type: 'send', text: '   \n' }, /at text/],
    ['a number as text', { type: 'send', text: 42 }, /expected string.*at text/],
    ['composer as a string', { type: 'ready', composer: 'true' }, /expected boolean.*at composer/],
    ['remember without an entry', { type: 'remember', entryId: '' }, /at entryId/],
    ['a memory id as a number', { type: 'openMemory', id: 7 }, /expected string.*at id/],
    ['a memory id past its bound', { type: 'deleteMemory', id: 'x'.repeat(101) }, /at id/],
    ['an MCP action outside the set', { type: 'mcpServer', name: 'everything', action: 'trust' }, /at action/],
    ['an MCP server without a name', { type: 'mcpServer', name: '', action: 'restart' }, /at name/],
    ['a file line of 0', { type: 'openFile', path: 'a.js', line: 0 }, /at line/],
    ['a file without a path', { type: 'openFile', path: '' }, /at path/],
    ['a chip of an unknown kind', { type: 'addContext', chip: { kind: 'terminal', id: 'c1', path: 'x' } }, /at chip\.kind/],
    ['a selection chip without its lines', { type: 'addContext', chip: { kind: 'selection', id: 'c1', path: 'index.js' } }, /at chip\.startLine/],
    ['a chip line of 0', { type: 'send', text: 'x', chips: [{ kind: 'selection', id: 'c1', path: 'a.js', startLine: 0, endLine: 2 }] }, /at chips\.0\.startLine/],
    ['more chips than a message carries', { type: 'send', text: 'x', chips: Array.from({ length: 21 }, (_, i) => ({ kind: 'file', id: `c${i}`, path: 'a.js' })) }, /at chips/],
    ['a picker query past its bound', { type: 'findFiles', query: 'x'.repeat(201) }, /at query/],
    ['nothing to insert', { type: 'insertAtCursor', text: '' }, /at text/],
    ['a copy of something else than text', { type: 'copyText', text: { code: 'x' } }, /expected string.*at text/],
    ['an MCP tool toggle as a string', { type: 'mcpTool', name: 'everything__echo', enabled: 'false' }, /expected boolean.*at enabled/],
    ['a notice action outside the set', { type: 'noticeAction', entryId: 'e4', action: 'runCommand' }, /at action/],
    ['a notice action without its notice', { type: 'noticeAction', entryId: '', action: 'retry' }, /at entryId/],
    ['a rule to remove without a pattern', { type: 'removeRule', tool: 'bash', pattern: '' }, /at pattern/],
    ['a session id that is a path', { type: 'resumeSession', id: '../../etc/passwd' }, /at id/],
    ['a session deleted by a made-up id', { type: 'deleteSession', id: 'abc' }, /at id/],
    ['a blank title', { type: 'renameSession', id: 'm3x9k2a-0a1b2c', title: '  \n ' }, /at title/],
    ['a title past its bound', { type: 'renameSession', id: 'm3x9k2a-0a1b2c', title: 'x'.repeat(101) }, /at title/],
    ['a history query past its bound', { type: 'listHistory', query: 'x'.repeat(201) }, /at query/],
    ['a blank queued message', { type: 'queueMessage', text: ' ' }, /at text/],
    ['an edit without its text', { type: 'editMessage', entryId: 'e3' }, /at text/],
    ['a trash id that is a path', { type: 'restoreTrash', id: '../a.bin' }, /at id/],
    ['a revert of a path, not a step or a turn', { type: 'revertChanges', target: { path: '/etc/passwd' } }, /at target/],
    ['a revert of no files', { type: 'revertChanges', target: { step: 's1' }, paths: [] }, /at paths/],
    ['a conflict answer outside the set', { type: 'resolveConflict', id: 'c1', path: 'a.txt', choice: 'overwrite' }, /at choice/],
    ['a comparison outside the set', { type: 'openConflict', id: 'c1', path: 'a.txt', compare: 'theirs' }, /at compare/],
  ])('rejects %s', (_what, raw, error) => {
    const parsed = parseWebviewMessage(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });

  test('refuses a message longer than the limit instead of cutting it', () => {
    expect(parseWebviewMessage({ type: 'send', text: 'x'.repeat(MAX_MESSAGE_CHARS) }).ok).toBe(true);
    expect(parseWebviewMessage({ type: 'send', text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }).ok).toBe(false);
  });

  test('setup: a provider, or a local model by name and server; nothing else', () => {
    expect(parseWebviewMessage({ type: 'setup', choice: 'anthropic' }).ok).toBe(true);
    expect(parseWebviewMessage({ type: 'setup', choice: 'local', model: 'qwen3:8b', baseUrl: 'http://127.0.0.1:11434/v1' }).ok).toBe(true);
    expect(parseWebviewMessage({ type: 'setup', choice: 'local', model: 'qwen3:8b' }).ok).toBe(false);
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

  test('accepts a notice with actions, an entry removed, a model with its endpoint and the local servers found', () => {
    expect(parseHostMessage({ type: 'append', entry: { kind: 'notice', id: 'e2', level: 'warning', text: 'x', actions: ['setApiKey', 'retry'] } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'remove', id: 'e2' }).ok).toBe(true);
    expect(parseHostMessage({ type: 'model', model: { state: 'configured', provider: 'openai', model: 'qwen3', endpoint: '127.0.0.1:1234' } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'localModels', servers: [{ name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', models: ['qwen3'] }] }).ok).toBe(true);
    expect(parseHostMessage({ type: 'append', entry: { kind: 'notice', id: 'e2', level: 'warning', text: 'x', actions: ['openTerminal'] } }).ok).toBe(false);
    expect(parseHostMessage({ type: 'remove' }).ok).toBe(false);
    expect(parseHostMessage({ type: 'localModels', models: ['qwen3'] }).ok).toBe(false);
  });

  test("accepts a step's changes on its card, a turn's list, the files' marks and a conflict card; refuses a kind or a mark outside the set", () => {
    const file = { path: 'src/a.js', kind: 'modified', restorable: true };
    const changes = { step: 's1', summary: 'changed 1 file', files: [file] };
    expect(parseHostMessage({ type: 'tool', id: 'e2', status: 'ok', output: '', changes }).ok).toBe(true);
    expect(parseHostMessage({ type: 'append', entry: { kind: 'changes', id: 'e3', steps: ['s1'], files: [{ ...file, state: 'kept' }], untracked: 1 } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'changeFiles', id: 'e3', files: [{ ...file, state: 'reverted' }] }).ok).toBe(true);
    expect(parseHostMessage({ type: 'revertConflict', conflict: { id: 'c1', action: 'Revert this step', files: [{ path: 'src/a.js', now: 'changed', since: '-a\n+b', restore: '-b\n+a' }] } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'revertConflictSettled', id: 'c1' }).ok).toBe(true);
    expect(parseHostMessage({ type: 'changeFiles', id: 'e3', files: [{ ...file, kind: 'copied' }] }).ok).toBe(false);
    expect(parseHostMessage({ type: 'changeFiles', id: 'e3', files: [{ ...file, state: 'lost' }] }).ok).toBe(false);
    expect(parseHostMessage({ type: 'revertConflict', conflict: { id: 'c1', action: 'x', files: [] } }).ok).toBe(false);
  });

  const SHA = 'a'.repeat(64);
  test('accepts a skill chip, the skills list and the memory list', () => {
    expect(parseHostMessage({ type: 'append', entry: { kind: 'skill', id: 'e3', name: 'review', source: '.peon/skills/review/SKILL.md', sha256: SHA, hidden: [], forked: 'skill-review' } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'append', entry: { kind: 'skill', id: 'e4', name: 'gone', source: '.peon/skills/gone/SKILL.md', hidden: [], error: 'not found' } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'skills', skills: [{ name: 'review', description: 'Reviews a diff.', source: '.peon/skills/review/SKILL.md', fork: false }], problems: ['Skill .claude/skills/x/SKILL.md skipped: no name.'] }).ok).toBe(true);
    expect(parseHostMessage({ type: 'memory', enabled: true, entries: [{ id: 'obs-0a1b2c', kind: 'observation', title: 'Use pnpm', file: '.peon/memory/observations/obs-0a1b2c.md', created: '2025-01-01T00:00:00.000Z', stale: false }] }).ok).toBe(true);
  });

  const server = { name: 'everything', source: '.vscode/mcp.json', project: true, state: 'ready', launch: 'node index.js stdio', tools: [{ name: 'everything__echo', tool: 'echo', enabled: true }], withheld: [], disabled: false };
  test('accepts the MCP section, an MCP tool card and a changed-tools card with its diff', () => {
    expect(parseHostMessage({ type: 'mcp', servers: [server], problems: ['.mcp.json: not JSON'], enabledTools: 1, maxTools: 64 }).ok).toBe(true);
    expect(parseHostMessage({ type: 'append', entry: { kind: 'tool', id: 'e5', name: 'everything__echo', title: 'everything › echo', args: 'message="hi"', status: 'running', output: '' } }).ok).toBe(true);
    const changes = [{ tool: 'echo', before: 'name: echo', after: 'name: echo\nmore', diff: '@@ -1 +1,2 @@\n name: echo\n+more' }];
    const card = { id: 'a1', tool: 'everything', risk: 'process', summary: { kind: 'mcp-tools', server: 'everything', changes }, source: 's', reasons: [], grantable: [], sessionGrants: [], canAlways: false, canOpenDiff: false };
    expect(parseHostMessage({ type: 'approval', card }).ok).toBe(true);
    expect(parseHostMessage({ type: 'approval', card: { ...card, destructive: ['rm -rf build deletes build'] } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'grants', grants: [{ tool: 'bash', pattern: 'node -e x()', text: 'node -e "x()"' }] }).ok).toBe(true);
    expect(parseHostMessage({ type: 'rules', rules: [{ tool: 'bash', pattern: 'npm run ts --if-present' }] }).ok).toBe(true);
    expect(parseHostMessage({ type: 'focus', target: 'composer' }).ok).toBe(true);
    expect(parseHostMessage({ type: 'focus', target: 'approval', id: 'a1' }).ok).toBe(true);
  });

  test.each([
    ['an MCP server in a state outside the set', { type: 'mcp', servers: [{ ...server, state: 'running' }], problems: [], enabledTools: 0, maxTools: 64 }],
    ['an MCP server from an unknown source', { type: 'mcp', servers: [{ ...server, source: '.cursor/mcp.json' }], problems: [], enabledTools: 0, maxTools: 64 }],
    ['an MCP section without maxTools', { type: 'mcp', servers: [], problems: [], enabledTools: 0 }],
    ['a skill chip whose hash is not a SHA-256', { type: 'append', entry: { kind: 'skill', id: 'e3', name: 'x', source: 's', sha256: 'abc', hidden: [] } }],
    ['a skill chip without its hidden list', { type: 'append', entry: { kind: 'skill', id: 'e3', name: 'x', source: 's' } }],
    ['a skill whose fork is a string', { type: 'skills', skills: [{ name: 'x', description: '', source: 's', fork: 'yes' }], problems: [] }],
    ['a memory entry of unknown kind', { type: 'memory', enabled: true, entries: [{ id: 'x', kind: 'secret', title: 't', file: 'f', stale: false }] }],
    ['memory without enabled', { type: 'memory', entries: [] }],
    ['a focus target outside the set', { type: 'focus', target: 'terminal' }],
    ['a rule without a pattern', { type: 'rules', rules: [{ tool: 'bash' }] }],
  ])('rejects %s', (_what, raw) => {
    expect(parseHostMessage(raw).ok).toBe(false);
  });

  test('accepts the history list, recent chats, the queue and the trash; rejects them out of shape', () => {
    const session = { id: 'm3x9k2a-0a1b2c', title: 'Fix the flaky login test', createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-02T00:00:00.000Z', messages: 4, cost: 0.01, snippet: '…the zebrafish fixture…' };
    expect(parseHostMessage({ type: 'history', query: 'zebrafish', sessions: [session], total: 5, titlesOnly: 0, current: session.id }).ok).toBe(true);
    expect(parseHostMessage({ type: 'recentChats', sessions: [session] }).ok).toBe(true);
    expect(parseHostMessage({ type: 'openHistory' }).ok).toBe(true);
    expect(parseHostMessage({ type: 'queue', messages: [{ id: 'q1', text: 'also update the README' }] }).ok).toBe(true);
    expect(parseHostMessage({ type: 'trash', entries: [{ id: 'm3x9k2a1-0a1b2c3d', path: 'src/old.js', size: 12, deletedAt: '2025-01-01T00:00:00.000Z', link: false }], note: 'Restored src/old.js.' }).ok).toBe(true);
    expect(parseHostMessage({ type: 'recentChats', sessions: Array.from({ length: 6 }, () => session) }).ok).toBe(false);
    expect(parseHostMessage({ type: 'history', query: '', sessions: [{ ...session, id: '../x' }], total: 1, titlesOnly: 0 }).ok).toBe(false);
    expect(parseHostMessage({ type: 'trash', entries: [{ id: 'x', path: 'a', size: 1, deletedAt: '', link: false }] }).ok).toBe(false);
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
    mcpStart: () => seen.push('mcpStart'),
    mcpServer: () => seen.push('mcpServer'),
    mcpTool: () => seen.push('mcpTool'),
    openFile: () => seen.push('openFile'),
    noticeAction: () => seen.push('noticeAction'),
    selectModel: () => seen.push('selectModel'),
    addContext: () => seen.push('addContext'),
    removeContext: () => seen.push('removeContext'),
    findFiles: () => seen.push('findFiles'),
    copyText: () => seen.push('copyText'),
    insertAtCursor: () => seen.push('insertAtCursor'),
    removeRule: () => seen.push('removeRule'),
    openRules: () => seen.push('openRules'),
    listHistory: () => seen.push('listHistory'),
    resumeSession: () => seen.push('resumeSession'),
    renameSession: () => seen.push('renameSession'),
    deleteSession: () => seen.push('deleteSession'),
    exportSession: () => seen.push('exportSession'),
    queueMessage: () => seen.push('queueMessage'),
    unqueueMessage: () => seen.push('unqueueMessage'),
    editMessage: () => seen.push('editMessage'),
    retryMessage: () => seen.push('retryMessage'),
    listTrash: () => seen.push('listTrash'),
    restoreTrash: () => seen.push('restoreTrash'),
    openChange: () => seen.push('openChange'),
    revertChanges: () => seen.push('revertChanges'),
    keepChanges: () => seen.push('keepChanges'),
    resolveConflict: () => seen.push('resolveConflict'),
    openConflict: () => seen.push('openConflict'),
  };
  dispatch<WebviewMessage>(handlers, { type: 'send', text: 'a' });
  dispatch<WebviewMessage>(handlers, { type: 'ready', composer: false });
  expect(seen).toEqual(['send:a', 'ready']);
});
