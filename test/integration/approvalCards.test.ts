import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../src/core/permissions/approvals';
import { ApprovalCards } from '../../src/extension/approvals';
import type { HostMessage } from '../../src/shared/messages';

// The host, not the webview, decides what an answer may do (SECURITY.md: the webview is
// untrusted): "always" without canAlways writes no rule; "session" without anything to
// grant allows once; an answer for a request withdrawn meanwhile allows nothing.
function request(grantable: string[], sessionGrants: string[], destructive?: string[]): ApprovalRequest {
  return {
    tool: 'bash',
    agent: 'main',
    assessment: { risk: 'process', writes: false, paths: [], summary: { kind: 'command', command: 'rm -rf x', cwd: '.' } },
    permission: { decision: 'ask', mode: 'semi-judge', source: 'default for bash: semi-judge', reasons: ['destructive'], grantable, sessionGrants, ...(destructive ? { destructive } : {}) },
  };
}

/** Global state as VS Code keeps it, in memory. */
function memento(): vscode.Memento {
  const values = new Map<string, unknown>();
  return { keys: () => [...values.keys()], get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback), update: async (key: string, value: unknown) => void values.set(key, value) } as vscode.Memento;
}

suite('approval cards in the host', () => {
  const log = vscode.window.createOutputChannel('Peon cards test', { log: true });
  const rules = () => vscode.workspace.getConfiguration('peon').inspect('permission.rules')?.globalValue;

  test('"always" and "session" for a call with nothing grantable approve it once, and write no rule', async () => {
    const posted: HostMessage[] = [];
    const cards = new ApprovalCards((m) => posted.push(m), log);
    for (const answer of ['always', 'session'] as const) {
      const reply = cards.broker.approve(request([], []), new AbortController().signal);
      const card = posted.filter((m) => m.type === 'approval').at(-1);
      assert.ok(card?.type === 'approval' && !card.card.canAlways);
      await cards.answer(card.card.id, answer);
      assert.deepEqual(await reply, { approved: true, scope: 'once' });
    }
    assert.equal(rules(), undefined);
    cards.dispose();
  });

  test('a destructive call is never offered "Always allow": the webview asking for it anyway writes no rule', async () => {
    const posted: HostMessage[] = [];
    const cards = new ApprovalCards((m) => posted.push(m), log);
    const reply = cards.broker.approve(request(['rm -rf build'], ['rm -rf build'], ['rm -rf build deletes build']), new AbortController().signal);
    const card = posted.find((m) => m.type === 'approval');
    assert.ok(card?.type === 'approval' && !card.card.canAlways);
    assert.deepEqual(card.card.destructive, ['rm -rf build deletes build']);
    await cards.answer(card.card.id, 'always');
    assert.deepEqual(await reply, { approved: true, scope: 'session' });
    assert.equal(rules(), undefined);
    cards.dispose();
  });

  test('Always allow writes the rule and lists it apart; the panel removes only rules added from cards', async () => {
    const posted: HostMessage[] = [];
    const peon = vscode.workspace.getConfiguration('peon');
    await peon.update('permission.rules', { bash: { 'make lint': 'allow' } }, vscode.ConfigurationTarget.Global);
    const cards = new ApprovalCards((m) => posted.push(m), log, undefined, { view: () => undefined, reveal: () => {}, memento: memento() });
    try {
      const reply = cards.broker.approve(request(['npm run ts --if-present'], ['npm run ts --if-present']), new AbortController().signal);
      const card = posted.find((m) => m.type === 'approval');
      assert.ok(card?.type === 'approval' && card.card.canAlways);
      await cards.answer(card.card.id, 'always');
      assert.deepEqual(await reply, { approved: true, scope: 'always' });
      assert.deepEqual(rules(), { bash: { 'make lint': 'allow', 'npm run ts --if-present': 'allow' } });
      const listed = posted.filter((m) => m.type === 'rules').at(-1);
      assert.deepEqual(listed?.type === 'rules' && listed.rules, [{ tool: 'bash', pattern: 'npm run ts --if-present' }]);
      // The person's own rule is theirs: not listed, not removed from the panel.
      await cards.removeRule('bash', 'make lint');
      assert.deepEqual(rules(), { bash: { 'make lint': 'allow', 'npm run ts --if-present': 'allow' } });
      await cards.removeRule('bash', 'npm run ts --if-present');
      assert.deepEqual(rules(), { bash: { 'make lint': 'allow' } });
      const after = posted.filter((m) => m.type === 'rules').at(-1);
      assert.deepEqual(after?.type === 'rules' && after.rules, []);
    } finally {
      cards.dispose();
      await peon.update('permission.rules', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('an answer for a withdrawn request allows nothing', async () => {
    const posted: HostMessage[] = [];
    const cards = new ApprovalCards((m) => posted.push(m), log);
    const controller = new AbortController();
    const reply = cards.broker.approve(request(['npm test'], ['npm test']), controller.signal);
    const card = posted.find((m) => m.type === 'approval');
    controller.abort();
    assert.equal((await reply).approved, false);
    assert.ok(card?.type === 'approval');
    await cards.answer(card.card.id, 'always');
    assert.equal(rules(), undefined, 'no rule written for a withdrawn request');
    assert.ok(posted.some((m) => m.type === 'approvalSettled' && m.id === card.card.id));
    cards.dispose();
  });
});
