import { registryFor } from '../../core/conversation/agentTypes';
import type { AnyTool } from '../../core/tools/contract';
import { parseArgs } from '../args';
import type { CliIo } from '../io';
import { shownOnTerminal } from '../terminalQuestions';
import { openToolHost } from '../toolHost';

export const toolsCommand = {
  summary: 'List every tool with its risk and JSON Schema, MCP servers\' tools included. [--json] [--workspace DIR] [--config FILE] [--approve all|none]',
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const args = parseArgs(argv, ['workspace', 'config', 'approve'], ['json']);
    const host = openToolHost({ workspace: args.values.workspace, config: args.values.config, approve: args.values.approve, batch: true });
    let tools: AnyTool[];
    try {
      for (const warning of host.settings.warnings) io.stderr(`peon: ${warning}\n`);
      // Every built-in the main agent has (as in a trusted workspace), then what the MCP servers that started offer.
      const mcp = host.mcp ? (await host.conversation.currentTools(), host.mcp.tools()) : [];
      for (const warning of host.mcp ? await host.startMcp() : []) io.stderr(`peon: ${warning}\n`);
      tools = registryFor('orchestrator', { trusted: true, extra: mcp }).list();
    } finally {
      await host.close();
    }
    if (args.flags.has('json')) {
      const rows = tools.map((t) => ({ name: t.name, risk: t.risk, description: t.description, inputSchema: t.inputSchema }));
      io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    const width = Math.max(...tools.map((t) => t.name.length));
    for (const tool of tools) {
      const params = Object.keys((tool.inputSchema.properties ?? {}) as object).join(', ');
      // An MCP server's description and parameter names are its own text: shown, never obeyed by the terminal.
      io.stdout(`${tool.name.padEnd(width)}  ${tool.risk.padEnd(10)}  ${shownOnTerminal(tool.description.split('\n')[0] ?? '')}\n${' '.repeat(width + 14)}(${shownOnTerminal(params)})\n`);
    }
    return 0;
  },
};
