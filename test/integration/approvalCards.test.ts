import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../src/core/permissions/approvals';
import { ApprovalCards } from '../../src/extension/approvals';
import type { HostMessage } from '../../src/shared/messages';

// The host, not the webview, decides what an answer may do (SECURITY.md: the webview is
// untrusted): "always" without canAlways writes no rule; "session" without anything to
// grant allows once; an answer for a request withdrawn meanwhile allows nothing.
function request(grantable: string[], sessionGrants: string[]): ApprovalRequest {
  return {
    tool: 'bash',
    agent: 'main',
    assessment: { risk: 'process', writes: false, paths: [], summary: { kind: 'command', command: 'rm -rf x', cwd: '.' } },
    permission: { decision: 'ask', mode: 'semi-judge', source: 'default for bash: semi-judge', reasons: ['destructive'], grantable, sessionGrants },
  };
}

suite('approval cards in the host', () => {
  const storage = vscode.Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'peon-cards-')));
  const log = vscode.window.createOutputChannel('Peon cards test', { log: true });
  const rules = () => vscode.workspace.getConfiguration('peon').inspect('permission.rules')?.globalValue;

  test('"always" and "session" for a call with nothing grantable approve it once, and write no rule', async () => {
    const posted: HostMessage[] = [];
    const cards = new ApprovalCards((m) => posted.push(m), log, storage);
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

  test('an answer for a withdrawn request allows nothing', async () => {
    const posted: HostMessage[] = [];
    const cards = new ApprovalCards((m) => posted.push(m), log, storage);
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
