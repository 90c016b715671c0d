// One MCP request's cancellation (src/core/mcp/requestCancel.ts): linked to the caller's
// signal for as long as the request runs, never after; a Stop cancels only what still runs.
import { afterEach, expect, test } from 'vitest';
import { linkRequest } from '../../../src/core/mcp/requestCancel';
import type { McpServers } from '../../../src/core/mcp/mcpServers';
import { tempDir } from '../tools/toolTestContext';
import { waitUntil } from '../cliHarness';
import { fault, mcpKit } from './mcpTestKit';

const open: McpServers[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.dispose()));
});

test('a link aborts with its caller, with the caller\'s reason, and its listeners run once', () => {
  const caller = new AbortController();
  const { cancel } = linkRequest(caller.signal);
  const heard: unknown[] = [];
  cancel.signal.addEventListener('abort', () => heard.push(cancel.signal.reason));
  expect(cancel.signal.aborted).toBe(false);
  expect(() => cancel.signal.throwIfAborted()).not.toThrow();
  caller.abort('stopped');
  caller.abort('again');
  expect(cancel.signal.aborted).toBe(true);
  expect(heard).toEqual(['stopped']);
  expect(() => cancel.signal.throwIfAborted()).toThrow('stopped');
});

test('a request done before the Stop is not cancelled by it; one still running is', () => {
  const caller = new AbortController();
  const finished = linkRequest(caller.signal);
  finished.done();
  const running = linkRequest(caller.signal);
  caller.abort();
  expect(finished.cancel.signal.aborted).toBe(false);
  expect(running.cancel.signal.aborted).toBe(true);
});

test('a caller already stopped gives a request that is cancelled from the start', () => {
  const caller = new AbortController();
  caller.abort('gone');
  const { cancel } = linkRequest(caller.signal);
  expect(cancel.signal.aborted).toBe(true);
  expect(() => cancel.signal.throwIfAborted()).toThrow('gone');
});

test('many calls under one signal, then Stop: the server is told of the running call only', async () => {
  const root = tempDir('peon-mcp-ws-');
  const kit = mcpKit({ root, user: { fault: fault() } });
  open.push(kit.servers);
  await kit.servers.ready(new AbortController().signal);
  const { makeContext } = await import('../tools/toolTestContext');
  const controller = new AbortController();
  const ctx = makeContext(root, { signal: controller.signal });
  const echo = kit.servers.tools().find((t) => t.name === 'fault__echo')!;
  for (let i = 0; i < 30; i++) await expect(echo.execute({ message: `m${i}` }, ctx, undefined as never)).resolves.toMatchObject({ output: `Echo: m${i}` });
  const slow = kit.servers.tools().find((t) => t.name === 'fault__slow')!;
  const running = slow.execute({}, ctx, undefined as never);
  const stderr = (): string => kit.servers.statuses().find((s) => s.name === 'fault')!.stderr ?? '';
  await waitUntil(() => stderr().includes('slow-started'), 'the call reached the server');
  controller.abort();
  await expect(running).rejects.toMatchObject({ code: 'cancelled' });
  await waitUntil(() => /cancelled request \d+/.test(stderr()), 'the server heard the cancellation');
  // The 30 calls answered before the Stop are not "cancelled" after the fact.
  await expect(echo.execute({ message: 'after' }, makeContext(root), undefined as never)).resolves.toMatchObject({ output: 'Echo: after' });
  expect(stderr().match(/cancelled request \d+/g)).toHaveLength(1);
});
