// The names MCP tools are called by (DESIGN.md §4 "MCP tools"): `<server>__<tool>`, every
// character outside [A-Za-z0-9_-] made `_`, at most 64 characters — a longer name is cut
// and ends in a short hash of the full one, so it is stable and two never meet. A name
// that would equal another (two raw names the same once cleaned, or a built-in's) gets
// the hash too. Calls are routed by the table these names come from, never by parsing a
// name back.
import { createHash } from 'node:crypto';

const MAX = 64;
const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);
const clean = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_');

/** The name of one server's tool, on its own (no other names considered). */
export function mcpToolName(server: string, tool: string): string {
  const full = `${server}__${tool}`;
  const name = clean(full);
  return name.length <= MAX ? name : `${name.slice(0, MAX - 9)}_${hashOf(full)}`;
}

export interface ToolRef {
  readonly server: string;
  readonly tool: string;
}

/**
 * A name for each tool, unique among them and never one of `reserved` (the built-ins):
 * the same input gives the same names, whatever its order.
 */
export function assignToolNames(tools: readonly ToolRef[], reserved: ReadonlySet<string>): Map<string, ToolRef> {
  const table = new Map<string, ToolRef>();
  const sorted = [...tools].sort((a, b) => (a.server === b.server ? (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0) : a.server < b.server ? -1 : 1));
  const wanted = new Map<string, number>();
  for (const ref of sorted) {
    const name = mcpToolName(ref.server, ref.tool);
    wanted.set(name, (wanted.get(name) ?? 0) + 1);
  }
  for (const ref of sorted) {
    let name = mcpToolName(ref.server, ref.tool);
    // Shared by two, or a built-in's: each such name takes the hash of its full, raw name.
    if (wanted.get(name)! > 1 || reserved.has(name) || table.has(name)) {
      const full = `${ref.server}__${ref.tool}`;
      name = `${clean(full).slice(0, MAX - 9)}_${hashOf(full)}`;
    }
    if (!table.has(name)) table.set(name, ref);
  }
  return table;
}
