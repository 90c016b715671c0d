// A server started from the panel (Restart, Enable) before a turn's ready() is not
// started a second time by it: one process, the same one, and none left behind.
import { afterEach, expect, test } from 'vitest';
import type { McpServers } from '../../../src/core/mcp/mcpServers';
import { alive, fault, mcpKit } from './mcpTestKit';

const open: McpServers[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.dispose()));
});

test('restart before the first ready(): ready() keeps the running server', async () => {
  const { servers } = mcpKit({ user: { fault: fault() } });
  open.push(servers);
  const never = new AbortController().signal;
  await servers.restart('fault', never);
  const [pid] = servers.pids();
  expect(pid).toBeDefined();
  await servers.ready(never);
  expect(servers.pids()).toEqual([pid]);
  await servers.dispose();
  expect(alive(pid!)).toBe(false);
});
