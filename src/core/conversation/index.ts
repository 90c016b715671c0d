// The conversation runtime as the faces load it: in the extension this is its own
// bundle (dist/runtime.js), required on first use, so activation does not pay for the
// model SDKs, the bash grammar and the tools (PERF.md B12).
export { openConversation, Conversation, type ConversationHooks, type ConversationSetup } from './conversation';
export { modelClient } from '../model/clients';
export type { SavedState } from './state';
// The panel's memory view and "Remember this" use the runtime's one store per workspace root.
export { memoryStore, type MemoryStore } from '../memory/memoryStore';
