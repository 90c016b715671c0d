// What the benchmarks drive in-process: the tool runtime exactly as the CLI builds it.
export { builtinRegistry } from '../src/core/tools/builtins';
export { DEFAULT_LIMITS } from '../src/core/tools/contract';
export { CallPipeline } from '../src/core/conversation/pipeline';
export { forgetDigest } from '../src/core/workspace/fileScan';
export { FileSnapshots } from '../src/core/workspace/snapshots';
export { Trash } from '../src/core/workspace/trash';
export { Workspace } from '../src/core/workspace/workspace';
export { locateRipgrep } from '../src/core/search/ripgrep';
// A whole conversation, as the faces assemble it (B20).
export { openConversation } from '../src/core/conversation/conversation';
export { resolveSettings } from '../src/core/settings';
export { anthropicClient } from '../src/core/model/anthropicClient';
// Memory (B17): the store as mem-search reaches it.
export { MemoryStore } from '../src/core/memory/memoryStore';
export { memoryAccess } from '../src/core/memory/memoryAccess';
// MCP (B16): a workspace's servers as the faces build them.
export { McpServers } from '../src/core/mcp/mcpServers';
export { McpTrust } from '../src/core/mcp/mcpTrust';
// The sandbox for commands (B19).
export { CommandSandbox } from '../src/core/sandbox/commandSandbox';
export { Checkpoints } from '../src/core/checkpoints/checkpoints';
