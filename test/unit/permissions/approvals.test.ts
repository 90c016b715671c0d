import { expect, test } from 'vitest';
import { ApprovalBroker } from '../../../src/core/permissions/approvals';
import type { ApprovalReply, ApprovalRequest } from '../../../src/core/permissions/approvals';

const request: ApprovalRequest = {
  tool: 'write',
  agent: 'main',
  assessment: { risk: 'filesystem', writes: true, paths: [], summary: { kind: 'generic', text: 'x' } },
  permission: { decision: 'ask', mode: 'semi-ask', source: 'default for write: semi-ask', reasons: ['it changes files'], grantable: [], sessionGrants: [] },
};

function broker() {
  const shown: string[] = [];
  const settled: [string, ApprovalReply, string][] = [];
  const b = new ApprovalBroker({ onRequest: (id) => shown.push(id), onSettled: (id, reply, how) => settled.push([id, reply, how]) });
  return { b, shown, settled };
}

test('an answer resolves the pending request by id, once; a second or forged answer is ignored', async () => {
  const { b, shown, settled } = broker();
  const reply = b.approve(request, new AbortController().signal);
  const [id] = shown;
  expect(b.isPending(id!)).toBe(true);
  expect(b.answer('not-an-id', { approved: true })).toBe(false);
  expect(b.answer(id!, { approved: true, scope: 'session' })).toBe(true);
  expect(await reply).toEqual({ approved: true, scope: 'session' });
  expect(b.answer(id!, { approved: false })).toBe(false); // the late click
  expect(settled).toEqual([[id, { approved: true, scope: 'session' }, 'answered']]);
});

test('cancelling (Stop) resolves a pending request as denied; a click after that changes nothing', async () => {
  const { b, shown, settled } = broker();
  const controller = new AbortController();
  const reply = b.approve(request, controller.signal);
  controller.abort();
  expect(await reply).toMatchObject({ approved: false });
  expect(b.answer(shown[0]!, { approved: true })).toBe(false);
  expect(settled.map(([, , how]) => how)).toEqual(['cancelled']);
});

test('cancelAll withdraws every pending request; an already-aborted signal never shows a card', async () => {
  const { b, shown } = broker();
  const one = b.approve(request, new AbortController().signal);
  const two = b.approve(request, new AbortController().signal);
  b.cancelAll();
  expect(await Promise.all([one, two])).toMatchObject([{ approved: false }, { approved: false }]);
  const aborted = new AbortController();
  aborted.abort();
  expect(await b.approve(request, aborted.signal)).toMatchObject({ approved: false });
  expect(shown).toHaveLength(2);
});
