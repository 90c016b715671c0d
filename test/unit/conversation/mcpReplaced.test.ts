// A face replaces its MCP servers (the panel makes the window's set anew when trust or
// their configuration changes): the conversation's tools follow at once, and a call to
// the old set's tool is an unknown tool, never routed to a server that was stopped.
import { afterEach, expect, test } from 'vitest';
import { openConversation } from '../../../src/core/conversation/conversation';
import type { McpServers } from '../../../src/core/mcp/mcpServers';
import { resolveSettings } from '../../../src/core/settings';
import { fault, mcpKit } from '../mcp/mcpTestKit';
import { tempDir } from '../tools/toolTestContext';

const open: McpServers[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.dispose()));
});

function servers(name: string): McpServers {
  const { servers } = mcpKit({ user: { [name]: fault() } });
  open.push(servers);
  return servers;
}

test("useMcp: the new set's tools replace the old set's, from the next call on; none without a set", async () => {
  const root = tempDir('peon-mcp-replaced-');
  const conversation = openConversation({
    agent: 'test',
    folders: [{ path: root }],
    settings: resolveSettings({ user: {}, workspace: {} }).values,
    layers: { user: {}, workspace: {} },
    trashDir: tempDir('peon-trash-'),
    hooks: { approve: async () => ({ approved: true }) },
    mcp: servers('one'),
  });
  expect(await conversation.call('one__echo', { message: 'a' })).toMatchObject({ ok: true, output: 'Echo: a' });
  conversation.useMcp(servers('two'));
  expect(conversation.toolNames).not.toContain('one__echo');
  expect(await conversation.call('one__echo', { message: 'b' })).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
  expect(await conversation.call('two__echo', { message: 'c' })).toMatchObject({ ok: true, output: 'Echo: c' });
  expect(conversation.toolNames).toContain('two__echo');
  conversation.useMcp(undefined);
  expect(conversation.toolNames.filter((n) => n.includes('__'))).toEqual([]);
  expect(await conversation.call('two__echo', { message: 'd' })).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
});
