import type { AnyTool } from './contract';
import { TOOL_NAME } from './defineTool';
import { RISKS } from './contract';

/** The tools a session can call, by name. Registration rejects bad and duplicate names. */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();

  register(tool: AnyTool): void {
    if (!TOOL_NAME.test(tool.name)) {
      throw new Error(`Tool name ${JSON.stringify(tool.name)} is invalid: it must match ${TOOL_NAME}.`);
    }
    if (this.tools.has(tool.name)) throw new Error(`A tool named ${tool.name} is already registered.`);
    if (!RISKS.includes(tool.risk)) throw new Error(`Tool ${tool.name} declares an unknown risk ${JSON.stringify(tool.risk)}.`);
    if (tool.description.length === 0) throw new Error(`Tool ${tool.name} has no description.`);
    if (tool.inputSchema.type !== 'object') throw new Error(`Tool ${tool.name}: its input schema must describe a JSON object.`);
    this.tools.set(tool.name, tool);
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  list(): AnyTool[] {
    return [...this.tools.values()];
  }
}
