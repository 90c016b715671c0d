// An MCP tool's image reaches a model that takes images (Anthropic: an image block in
// the tool_result), and a model API that gets text only from Peon is told it was not
// passed on: server-everything's get-tiny-image, a real turn over the scripted model server.
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { openConversation } from '../../../src/core/conversation/conversation';
import { anthropicClient } from '../../../src/core/model/anthropicClient';
import { DEFAULT_MODELS } from '../../../src/core/model/modelInfo';
import { openaiClient } from '../../../src/core/model/openaiClient';
import type { ModelClient } from '../../../src/core/model/modelClient';
import type { McpServers } from '../../../src/core/mcp/mcpServers';
import { resolveSettings } from '../../../src/core/settings';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { tempDir } from '../tools/toolTestContext';
import { everything, mcpKit } from './mcpTestKit';

let model: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => (model = await startModelServer()));
afterAll(() => model.close());
const open: McpServers[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.dispose()));
});

async function turnWithImage(client: ModelClient): Promise<unknown> {
  const root = tempDir('peon-mcp-img-');
  const kit = mcpKit({ root, user: { everything: everything() } });
  open.push(kit.servers);
  const conversation = openConversation({
    agent: 'main',
    folders: [{ path: root }],
    settings: resolveSettings({ user: {}, workspace: {} }).values,
    layers: { user: {}, workspace: {} },
    trashDir: tempDir('peon-trash-'),
    hooks: { approve: async () => ({ approved: true }) },
    mcp: kit.servers,
  });
  model.script({ toolCalls: [{ id: 'img1', name: 'everything__get-tiny-image', arguments: '{}' }] }, { text: 'A tiny logo.' });
  const before = model.requests.length;
  const result = await conversation.turn('show me the image', client, () => undefined);
  expect(result).toMatchObject({ reason: 'end_turn', text: 'A tiny logo.' });
  return model.requests[before + 1]!.body;
}

test('Anthropic: the image goes back in the tool_result, after the text', async () => {
  const body = (await turnWithImage(anthropicClient({ apiKey: 'test', model: DEFAULT_MODELS.anthropic, baseUrl: model.anthropicUrl }))) as { messages: { role: string; content: unknown }[] };
  const toolResult = (body.messages.at(-1)!.content as { type: string; content: { type: string; source?: { media_type: string; data: string } }[] }[]).find((b) => b.type === 'tool_result')!;
  const image = toolResult.content.find((c) => c.type === 'image')!;
  expect(image.source!.media_type).toBe('image/png');
  expect(Buffer.from(image.source!.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  expect(toolResult.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/\[image image\/png, .*, attached as image 1\]/) });
});

test('OpenAI-compatible: the result says the image was not passed on', async () => {
  const body = (await turnWithImage(openaiClient({ apiKey: 'test', model: 'gpt-test', baseUrl: model.openaiUrl }))) as { messages: { role: string; content: string }[] };
  const tool = body.messages.find((m) => m.role === 'tool')!;
  expect(tool.content).toMatch(/attached as image 1\][\s\S]*\[1 image not passed on: this model API gets text only from Peon\]/);
});
