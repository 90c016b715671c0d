import { registryFor } from '../../core/conversation/agentTypes';
import { parseArgs } from '../args';
import type { CliIo } from '../io';
import { loadSettings } from '../settingsFiles';

export const toolsCommand = {
  summary: 'List every tool with its risk and JSON Schema. [--json] [--workspace DIR] [--config FILE]',
  run(argv: readonly string[], io: CliIo): number {
    const args = parseArgs(argv, ['workspace', 'config'], ['json']);
    const { warnings } = loadSettings(args.values.config, args.values.workspace ?? process.cwd());
    for (const warning of warnings) io.stderr(`peon: ${warning}\n`);
    const tools = registryFor('orchestrator', { trusted: true }).list();
    if (args.flags.has('json')) {
      const rows = tools.map((t) => ({ name: t.name, risk: t.risk, description: t.description, inputSchema: t.inputSchema }));
      io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    const width = Math.max(...tools.map((t) => t.name.length));
    for (const tool of tools) {
      const params = Object.keys((tool.inputSchema.properties ?? {}) as object).join(', ');
      io.stdout(`${tool.name.padEnd(width)}  ${tool.risk.padEnd(10)}  ${tool.description.split('\n')[0]}\n${' '.repeat(width + 14)}(${params})\n`);
    }
    return 0;
  },
};
