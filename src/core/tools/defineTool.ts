// One place that turns a tool's zod input into what the model sees (JSON Schema) and
// into validated input, with the aliases of DESIGN.md §4 (`filePath` for `path`, …).
import * as z from 'zod';
import type { Assessment, Risk, Tool, ToolContext, ToolResult } from './contract';
import { ToolError } from './toolError';

export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface ToolDefinition<S extends z.ZodObject> {
  name: string;
  description: string;
  input: S;
  risk: Risk;
  /** It waits for the person: no deadline (Tool.untimed). */
  untimed?: boolean;
  /** Alternative spellings accepted for a parameter: `{ filePath: 'path' }`. */
  aliases?: Readonly<Record<string, string>>;
  assess(input: z.output<S>, ctx: ToolContext): Promise<Assessment>;
  execute(input: z.output<S>, ctx: ToolContext, assessment: Assessment): Promise<ToolResult>;
}

export function defineTool<S extends z.ZodObject>(definition: ToolDefinition<S>): Tool<z.output<S>> {
  const schema = definition.input.strict();
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  const aliases = definition.aliases ?? {};
  return {
    name: definition.name,
    description: definition.description.trim(),
    inputSchema,
    risk: definition.risk,
    ...(definition.untimed ? { untimed: true } : {}),
    parse(raw: unknown) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        throw new ToolError('invalid_input', `${definition.name} takes a JSON object of parameters.`);
      }
      const input: Record<string, unknown> = { ...raw };
      for (const [alias, canonical] of Object.entries(aliases)) {
        if (!(alias in input)) continue;
        if (canonical in input && input[canonical] !== input[alias]) {
          throw new ToolError('invalid_input', `Give either ${canonical} or ${alias} (an alias), not both.`);
        }
        input[canonical] = input[alias];
        delete input[alias];
      }
      const parsed = schema.safeParse(input);
      if (parsed.success) return parsed.data as z.output<S>;
      throw new ToolError('invalid_input', describeIssues(definition.name, parsed.error.issues), {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    },
    assess: definition.assess,
    execute: definition.execute,
  };
}

function describeIssues(tool: string, issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.slice(0, 5).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'input';
    if (issue.code === 'unrecognized_keys') return `unknown parameter(s): ${issue.keys.join(', ')}`;
    return `${where}: ${issue.message}`;
  });
  return `Invalid input for ${tool}: ${lines.join('; ')}. Fix the parameters and call again.`;
}
