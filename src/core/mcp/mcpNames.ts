// The names MCP tools are called by (DESIGN.md §4 "MCP tools"): `<server>__<tool>`, every
// character outside [A-Za-z0-9_-] made `_`, at most 64 characters — a longer name is cut
// and ends in a short hash of the full one, so it is stable and two never meet. Calls
// are routed by the table these names come from, never by parsing a name back.
//
// Every tool gets a name and no two share one, compared case-insensitively (nor with a
// built-in's). Tools are named in order — the person's servers first (priority 0), then
// a project's (1); within that by server, then tool — and a tool whose name is taken
// gets the hashed form, and then a counter in the hash until one is free. So a project's
// tools never take a name the person's tools would have had without them (a project
// tool listed as `x_<hash>` cannot take over the person's `x`), and the same tools get
// the same names in any order. The hash is of `<server>\0<tool>`: unambiguous, where
// `<server>__<tool>` is not (server `a__b` tool `c`, server `a` tool `b__c`).
import { createHash } from 'node:crypto';

const MAX = 64;
const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);
const clean = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_');

/** `<server>__<tool>` cut to leave room for `_<hash>`, the hash of `<server>\0<tool>` (and `\0<n>` from the second try on). */
function hashedName(server: string, tool: string, attempt = 0): string {
  const input = attempt === 0 ? `${server}\0${tool}` : `${server}\0${tool}\0${attempt}`;
  return `${clean(`${server}__${tool}`).slice(0, MAX - 9)}_${hashOf(input)}`;
}

/** The name of one server's tool, on its own (no other names considered). */
export function mcpToolName(server: string, tool: string): string {
  const name = clean(`${server}__${tool}`);
  return name.length <= MAX ? name : hashedName(server, tool);
}

export interface ToolRef {
  readonly server: string;
  readonly tool: string;
  /** Who is named first: lower first (0, the person's servers; 1, a project's). Unset: 0. */
  readonly priority?: number;
}

const priorityOf = (ref: ToolRef): number => (typeof ref.priority === 'number' && Number.isFinite(ref.priority) ? ref.priority : 0);
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A name for each tool (the header says how), unique among them case-insensitively and
 * never one of `reserved` (the built-ins' names, lower-cased). The same input gives the
 * same names whatever its order. A ref listed twice (same server and tool) is one tool,
 * named once.
 */
export function assignToolNames<R extends ToolRef>(tools: readonly R[], reserved: ReadonlySet<string>): Map<string, R> {
  const sorted = [...tools].sort((a, b) => priorityOf(a) - priorityOf(b) || compare(a.server, b.server) || compare(a.tool, b.tool));
  const table = new Map<string, R>();
  const taken = new Set<string>();
  const named = new Set<string>();
  const free = (name: string): boolean => !taken.has(name.toLowerCase()) && !reserved.has(name.toLowerCase());
  for (const ref of sorted) {
    const id = `${ref.server}\0${ref.tool}`;
    if (named.has(id)) continue;
    named.add(id);
    let name = mcpToolName(ref.server, ref.tool);
    for (let attempt = 0; !free(name); attempt++) name = hashedName(ref.server, ref.tool, attempt);
    taken.add(name.toLowerCase());
    table.set(name, ref);
  }
  return table;
}
