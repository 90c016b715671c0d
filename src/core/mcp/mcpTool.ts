// One MCP server's tool as a Peon tool (DESIGN.md §4 "MCP tools"): the same contract,
// pipeline, gate and cards as a built-in. Its name comes from the lookup table
// (mcpNames.ts) and its call is routed by the reference it holds, never by parsing the
// name. Risk `process`: it runs code in another program, so it asks by
// peon.permission.default, never exists in a restricted workspace, and is refused in
// plan mode — whatever the server's own hints say (`readOnlyHint` is shown, never
// trusted). Input is checked by ajv against the server's schema before anything else.
import type { AnyTool, Assessment, ToolContext, ToolResult } from '../tools/contract';
import { ToolError } from '../tools/toolError';
import { argumentLine, cutText } from '../../shared/format';
import { findHidden, describeHidden } from '../../shared/hiddenText';
import { compileInputSchema, modelSchema, type InputCheck } from './mcpSchema';
import type { ListedTool } from './mcpClient';

/** A description longer than this is cut: one server cannot fill the model's context with prose. */
export const MAX_DESCRIPTION_CHARS = 2048;
const CARD_INPUT_CHARS = 20_000;

export interface McpToolRef {
  readonly server: string;
  readonly tool: string;
}

export interface McpCaller {
  call(ref: McpToolRef, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

/** The hints a server gives about its tool, said on the card as what they are: claims. */
function hintsOf(tool: ListedTool): string[] {
  const a = tool.annotations ?? {};
  const hints: string[] = [];
  if (a.readOnlyHint === true) hints.push('read-only');
  if (a.destructiveHint === true) hints.push('destructive');
  if (a.idempotentHint === true) hints.push('idempotent');
  if (a.openWorldHint === true) hints.push('reaches outside (open world)');
  return hints;
}

/** The tool, or why it cannot be offered (its schema does not compile). */
export function mcpTool(name: string, ref: McpToolRef, listed: ListedTool, caller: McpCaller): AnyTool | { error: string } {
  const compiled = compileInputSchema(listed.inputSchema);
  if ('error' in compiled) return { error: compiled.error };
  const check: InputCheck = compiled.check;
  const label = `${ref.server} › ${ref.tool}`;
  const text = (listed.description ?? listed.title ?? '').trim() || `The ${ref.tool} tool of the MCP server ${ref.server}.`;
  // Who it belongs to, quoted: a tool's own name cannot pose as the end of this line and start another.
  const description = `${cutText(text, MAX_DESCRIPTION_CHARS)}\n\n(MCP server ${JSON.stringify(ref.server)}, tool ${JSON.stringify(cutText(ref.tool, 128))}.)`;
  const hints = hintsOf(listed);
  return {
    name,
    description,
    inputSchema: modelSchema(listed.inputSchema),
    risk: 'process',
    untimed: true, // the call has its own timeout, peon.mcp.timeoutSeconds (McpServers.call): one, not two
    parse(raw: unknown): Record<string, unknown> {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ToolError('invalid_input', `${name} takes a JSON object of parameters.`);
      const why = check(raw);
      if (why !== undefined) throw new ToolError('invalid_input', `Invalid input for ${name} (checked against the server's schema): ${why}. Fix the parameters and call again.`);
      return raw as Record<string, unknown>;
    },
    async assess(input: Record<string, unknown>): Promise<Assessment> {
      const shown = JSON.stringify(input, null, 2);
      return {
        risk: 'process',
        writes: true,
        paths: [],
        // A tool its server calls read-only is not checkpointed (the claim never loosens a permission).
        changes: hints.includes('read-only') ? 'none' : 'folders',
        summary: {
          kind: 'mcp',
          server: ref.server,
          tool: ref.tool,
          input: cutText(shown, CARD_INPUT_CHARS),
          line: argumentLine(input),
          hints,
          hidden: describeHidden(findHidden(shown)),
        },
      };
    },
    async execute(input: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
      const result = await caller.call(ref, input, ctx);
      return { ...result, headline: result.headline ?? label };
    },
  };
}
