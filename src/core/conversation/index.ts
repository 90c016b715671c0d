// The conversation runtime as the faces load it: in the extension this is its own
// bundle (dist/runtime.js), required on first use, so activation does not pay for the
// model SDKs, the bash grammar and the tools (PERF.md B12).
export { openConversation, Conversation, type ConversationHooks, type ConversationSetup } from './conversation';
export { modelClient } from '../model/clients';
export type { SavedState } from './state';
// The panel's memory view and "Remember this" use the runtime's one store per workspace root.
export { memoryStore, type MemoryStore } from '../memory/memoryStore';
// The window's MCP servers (one set the panel's chats share), what the person approved of
// them, the diff their changed tools' card shows, a server's questions and its OAuth.
export { McpServers, type McpHooks, type McpServersOptions, type ServerStatus } from '../mcp/mcpServers';
export { McpTrust } from '../mcp/mcpTrust';
export type { McpInput } from '../mcp/mcpConfig';
export type { McpSecretStore } from '../mcp/secretStore';
export { fileDiff } from '../tools/fileDiff';
export { askElicitation } from '../mcp/elicitation';
export { mcpAuthorizer } from '../mcp/mcpAuth';
