// A tool as an MCP server lists it, before anything else reads it: whether it can be
// offered at all (toolProblem), and what the model and a card may be shown of it
// (visibleTool, hiddenIn). A server's listing is hostile input: a schema 3000 levels
// deep makes every recursive reader — JSON.stringify, a canonical hash, ajv — throw
// RangeError, so the limits here are checked without recursion (depth first, then
// size, counted so that it stops at the limit). Hidden Unicode in what the model reads
// (title, description, every string of the input schema, its property names too) is
// written as ⟨U+XXXX⟩ (src/shared/hiddenText.ts); the name stays raw, for routing.
import { describeHidden, findHidden, visibleText } from '../../shared/hiddenText';

export const MAX_TOOL_NAME_CHARS = 128;
export const MAX_SCHEMA_DEPTH = 64;
export const MAX_SCHEMA_BYTES = 256 * 1024;
export const MAX_DESCRIPTION_BYTES = 100 * 1024;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `value` nests more than `limit` objects and arrays deep (`{}` is 1): iterative, stops at the limit, so a cycle ends too. */
function deeperThan(value: unknown, limit: number): boolean {
  const work: [unknown, number][] = [[value, 1]];
  while (work.length > 0) {
    const [node, depth] = work.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (child && typeof child === 'object') work.push([child, depth + 1]);
  }
  return false;
}

/** The UTF-8 length of one scalar as JSON (`undefined` and functions count as `null`). */
function scalarBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(JSON.stringify(value));
  try {
    return (JSON.stringify(value) ?? 'null').length;
  } catch {
    return 4; // a bigint: not JSON, never from a server
  }
}

/**
 * Whether `value` as JSON (JSON.stringify's output, UTF-8) is over `limit` bytes:
 * counted without recursion, stopping once over. Call after deeperThan (a cycle would
 * otherwise be counted until the limit).
 */
function largerThan(value: unknown, limit: number): boolean {
  let bytes = 0;
  const work: unknown[] = [value];
  while (work.length > 0) {
    const node = work.pop();
    if (Array.isArray(node)) {
      bytes += 2 + Math.max(0, node.length - 1); // [ ] and commas
      for (const item of node) work.push(item);
    } else if (node && typeof node === 'object') {
      const entries = Object.entries(node).filter(([, v]) => v !== undefined && typeof v !== 'function');
      bytes += 2 + Math.max(0, entries.length - 1);
      for (const [k, v] of entries) {
        bytes += Buffer.byteLength(JSON.stringify(k)) + 1; // "key":
        work.push(v);
      }
    } else bytes += scalarBytes(node);
    if (bytes > limit) return true;
  }
  return false;
}

const kb = (bytes: number): string => `${bytes / 1024} KB`;

/** Why a listed tool cannot be offered, or undefined when it can. Never recurses, never throws. */
export function toolProblem(tool: unknown): string | undefined {
  if (!isObject(tool)) return 'it is not a JSON object';
  const { name, title, description } = tool;
  if (typeof name !== 'string' || name.length < 1 || name.length > MAX_TOOL_NAME_CHARS) return `its name is not a string of 1 to ${MAX_TOOL_NAME_CHARS} characters`;
  for (const [field, text] of [
    ['title', title],
    ['description', description],
  ] as const) {
    if (text === undefined) continue;
    if (typeof text !== 'string') return `its ${field} is not a string`;
    if (Buffer.byteLength(text) > MAX_DESCRIPTION_BYTES) return `its ${field} is larger than ${kb(MAX_DESCRIPTION_BYTES)}`;
  }
  // The schemas first, then every other part (annotations, _meta, …): each is read by a hash, a card or a validator.
  const parts = Object.keys(tool).filter((k) => k !== 'name' && k !== 'title' && k !== 'description');
  parts.sort((a, b) => Number(b === 'inputSchema' || b === 'outputSchema') - Number(a === 'inputSchema' || a === 'outputSchema'));
  for (const part of parts) {
    const value = tool[part];
    if (deeperThan(value, MAX_SCHEMA_DEPTH)) return `its ${part} nests deeper than ${MAX_SCHEMA_DEPTH} levels`;
    if (largerThan(value, MAX_SCHEMA_BYTES)) return `its ${part} is larger than ${kb(MAX_SCHEMA_BYTES)} as JSON`;
  }
  return undefined;
}

/** A copy of `value` with every string in it — object keys too — passed through `f`. Iterative; a cycle stays a cycle. */
function mapStrings(value: unknown, f: (text: string) => string): unknown {
  const copies = new Map<object, unknown>();
  let root: unknown;
  const work: { value: unknown; put: (copy: unknown) => void }[] = [{ value, put: (copy) => (root = copy) }];
  while (work.length > 0) {
    const { value: node, put } = work.pop()!;
    if (typeof node === 'string') put(f(node));
    else if (!node || typeof node !== 'object') put(node);
    else if (copies.has(node)) put(copies.get(node));
    else if (Array.isArray(node)) {
      const copy: unknown[] = new Array(node.length);
      copies.set(node, copy);
      put(copy);
      node.forEach((item, i) => work.push({ value: item, put: (c) => (copy[i] = c) }));
    } else {
      const copy: Json = {};
      copies.set(node, copy);
      put(copy);
      for (const [k, v] of Object.entries(node)) {
        const key = f(k);
        work.push({ value: v, put: (c) => (copy[key] = c) });
      }
    }
  }
  return root;
}

/** Every string in `value`, object keys too, in document order. Iterative. */
function stringsIn(value: unknown): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const work: unknown[] = [value];
  while (work.length > 0) {
    const node = work.pop();
    if (typeof node === 'string') found.push(node);
    else if (node && typeof node === 'object' && !seen.has(node)) {
      seen.add(node);
      const children: unknown[] = Array.isArray(node) ? node : Object.entries(node).flat();
      for (let i = children.length - 1; i >= 0; i--) work.push(children[i]);
    }
  }
  return found;
}

/**
 * The tool as the model and a card may read it: hidden characters in its title, its
 * annotations' title, its description and every string of its input schema (property
 * names, enum values and `required` alike, so they still agree) written as ⟨U+XXXX⟩.
 * The name is left raw: calls are routed by it. The tool given is not changed.
 */
export function visibleTool<T extends object>(tool: T): T {
  const given = tool as Json;
  const out: Json = { ...given };
  if (typeof given.title === 'string') out.title = visibleText(given.title);
  if (typeof given.description === 'string') out.description = visibleText(given.description);
  if (isObject(given.annotations) && typeof given.annotations.title === 'string') out.annotations = { ...given.annotations, title: visibleText(given.annotations.title) };
  if (given.inputSchema !== undefined) out.inputSchema = mapStrings(given.inputSchema, visibleText);
  return out as T;
}

/** What the tool hides, part by part ("description: 3 tag characters", "inputSchema: 1 bidi control"); nothing: empty. */
export function hiddenIn(tool: unknown): string[] {
  if (!isObject(tool)) return [];
  const annotations = isObject(tool.annotations) ? tool.annotations : {};
  const parts: [string, unknown][] = [
    ['name', tool.name],
    ['title', tool.title],
    ['annotations.title', annotations.title],
    ['description', tool.description],
    ['inputSchema', tool.inputSchema],
  ];
  const lines: string[] = [];
  for (const [where, value] of parts) {
    // One text per part; the line breaks between its strings end a run of tag characters.
    const text = typeof value === 'string' ? value : value && typeof value === 'object' ? stringsIn(value).join('\n') : '';
    for (const line of describeHidden(findHidden(text))) lines.push(`${where}: ${line}`);
  }
  return lines;
}
