// The built-in tools. Adding a tool: a file (and its .md description) in this folder,
// and one line here.
import { AGENT_TOOLS } from './agents';
import { askUserQuestionTool } from './askuserquestion';
import { bashTool } from './bash';
import { deleteTool } from './delete';
import { editTool } from './edit';
import { enterPlanModeTool } from './enterplanmode';
import { exitPlanModeTool } from './exitplanmode';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listTool } from './list';
import { loadskillTool } from './loadskill';
import { memReadTool } from './mem-read';
import { memSearchTool } from './mem-search';
import { readTool } from './read';
import { readSkillTool } from './read_skill';
import { taskTool } from './task';
import { taskstatusTool } from './taskstatus';
import { ToolRegistry } from './registry';
import { todoreadTool } from './todoread';
import { todowriteTool } from './todowrite';
import { webfetchTool } from './webfetch';
import { websearchTool } from './websearch';
import { writeTool } from './write';

export const BUILTIN_TOOLS = [readTool, writeTool, editTool, deleteTool, listTool, globTool, grepTool, bashTool, todoreadTool, todowriteTool, askUserQuestionTool, enterPlanModeTool, exitPlanModeTool, webfetchTool, websearchTool, taskTool, taskstatusTool, readSkillTool, loadskillTool, memSearchTool, memReadTool, ...AGENT_TOOLS];

export function builtinRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of BUILTIN_TOOLS) registry.register(tool);
  return registry;
}
