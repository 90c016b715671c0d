// A real conversation over a temp workspace, assembled by the runtime as every face does.
import path from 'node:path';
import { openConversation, type Conversation, type ConversationHooks, type ConversationSetup } from '../../../src/core/conversation/conversation';
import type { AgentType } from '../../../src/core/conversation/agentTypes';
import type { SavedState } from '../../../src/core/conversation/state';
import { resolveSettings } from '../../../src/core/settings';
import { approveAll, tempDir } from '../tools/toolTestContext';

/** Every conversation a test opened: stopped after it (subagentTestKit), so no child of one test takes the next test's scripted replies. */
export const opened = new Set<Conversation>();

export function conversationIn(root: string, options: { type?: AgentType; hooks?: Partial<ConversationHooks>; state?: SavedState; user?: Record<string, unknown>; trusted?: boolean; extra?: Partial<ConversationSetup> } = {}) {
  const layers = { user: options.user ?? {}, workspace: {} };
  const conversation = openConversation({
    ...(options.type ? { agentType: options.type } : {}),
    agent: 'main',
    folders: [{ path: root }],
    settings: resolveSettings(layers).values,
    layers,
    ...(options.trusted === undefined ? {} : { trusted: options.trusted }),
    trashDir: path.join(tempDir('peon-trash-'), 'trash'),
    hooks: { approve: approveAll, ...options.hooks },
    // The person's own skills live under their home: a test's home is its own empty folder.
    home: tempDir('peon-home-'),
    ...(options.state ? { state: options.state } : {}),
    ...options.extra,
  });
  opened.add(conversation);
  return conversation;
}
