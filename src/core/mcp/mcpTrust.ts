// What the person approved of MCP, kept in user scope (the extension's global state, or
// a 0600 file under PEON_STATE_DIR for the CLI; this class holds the data and the rules,
// the face its storage): a project server's approval, bound to its configuration's hash
// (serverApproval.ts) and to the workspace it belongs to; and each tool's fingerprint —
// name, title, description, input and output schemas, annotations — when first seen. A
// tool whose fingerprint changed is withheld until approved again (a "rug pull": the
// description swapped after approval); a server whose configuration changed asks again.
// A listing is checked, and an approval recorded, as one write (checkTools,
// approveTools: a thousand tools were a thousand rewrites of the file); an approval
// records only the version the card showed. Fingerprints are computed without
// recursion: a listing is hostile input, and a schema 3000 levels deep must not throw.
import { createHash } from 'node:crypto';

export interface ToolShape {
  readonly name: string;
  /** Shown to the model when there is no description (and on cards): fingerprinted like it. */
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

/** Whether JSON.parse would put `key` first among an object's keys (an array index: ascending, before the rest). */
const isIndex = (key: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;

/** A scalar as JSON (what is not JSON — undefined, a function, a bigint — as null). */
function scalar(value: unknown): string {
  try {
    return JSON.stringify(value ?? null) ?? 'null';
  } catch {
    return 'null';
  }
}

/** How much of one part of a tool its text (toolText) shows: indentation grows with depth, and the text is kept in the trust data. */
export const MAX_TEXT_CHARS = 256 * 1024;

/**
 * JSON with object keys sorted, so the same shape always hashes the same; with `indent`,
 * laid out as JSON.stringify(JSON.parse(that), null, indent) would (index-like keys
 * first, as JSON.parse orders them). Iterative: any depth, never a RangeError; an
 * object inside itself (never from JSON) is written as null. Past `limit` characters
 * the rest is left out, and a line says so.
 */
function canonical(value: unknown, indent = '', limit = Infinity): string {
  type Item = string | { readonly value: unknown; readonly depth: number } | { readonly leave: object };
  const out: string[] = [];
  const open = new Set<object>();
  const work: Item[] = [{ value, depth: 0 }];
  const line = (depth: number): string => (indent === '' ? '' : `\n${indent.repeat(depth)}`);
  let length = 0;
  const cut = (): string => `${out.join('').slice(0, limit)}\n… (cut: the rest is over ${limit} characters)`;
  const write = (text: string): void => {
    out.push(text);
    length += text.length;
  };
  while (work.length > 0) {
    if (length > limit) return cut();
    const item = work.pop()!;
    if (typeof item === 'string') {
      write(item);
      continue;
    }
    if ('leave' in item) {
      open.delete(item.leave);
      continue;
    }
    const { value: node, depth } = item;
    if (!node || typeof node !== 'object') {
      write(scalar(node));
      continue;
    }
    if (open.has(node)) {
      write('null');
      continue;
    }
    // Each member as [its prefix, its value]; pushed last to first, so they come out in order.
    let members: [string, unknown][];
    let brackets: [string, string];
    if (Array.isArray(node)) {
      members = node.map((v) => ['', v]);
      brackets = ['[', ']'];
    } else {
      const entries = Object.entries(node as Record<string, unknown>).filter(([, v]) => v !== undefined);
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (indent !== '') entries.sort(([a], [b]) => (isIndex(a) && isIndex(b) ? Number(a) - Number(b) : Number(isIndex(b)) - Number(isIndex(a))));
      members = entries.map(([k, v]) => [`${JSON.stringify(k)}:${indent === '' ? '' : ' '}`, v]);
      brackets = ['{', '}'];
    }
    if (members.length === 0) {
      write(brackets.join(''));
      continue;
    }
    open.add(node);
    work.push({ leave: node }, `${line(depth)}${brackets[1]}`);
    for (let i = members.length - 1; i >= 0; i--) work.push({ value: members[i]![1], depth: depth + 1 }, `${i > 0 ? ',' : ''}${line(depth + 1)}${members[i]![0]}`);
    write(brackets[0]);
  }
  return length > limit ? cut() : out.join('');
}

// `title` is left out when a tool has none (canonical drops undefined): fingerprints recorded before it was covered still match.
const fingerprinted = (tool: ToolShape) => ({ name: tool.name, title: tool.title, description: tool.description ?? '', inputSchema: tool.inputSchema ?? null, outputSchema: tool.outputSchema ?? null, annotations: tool.annotations ?? null });

export function toolFingerprint(tool: ToolShape): string {
  return createHash('sha256').update(canonical(fingerprinted(tool))).digest('hex');
}

/** What the person reads of a tool on the card of a change: every fingerprinted part, keys sorted (each cut at MAX_TEXT_CHARS). */
export function toolText(tool: ToolShape): string {
  const parts = fingerprinted(tool);
  return [
    `name: ${parts.name}`,
    ...(parts.title !== undefined ? [`title: ${typeof parts.title === 'string' ? parts.title : canonical(parts.title, '', MAX_TEXT_CHARS)}`] : []),
    `description:\n${parts.description}`,
    ...(['inputSchema', 'outputSchema', 'annotations'] as const).filter((k) => parts[k] !== null).map((k) => `${k}: ${canonical(parts[k], '  ', MAX_TEXT_CHARS)}`),
  ].join('\n');
}

export interface TrustData {
  /** `<workspace>\0<server>` → the approved configuration's hash. */
  readonly servers: Readonly<Record<string, string>>;
  /** `<workspace>\0<server>\0<tool>` → the approved fingerprint. */
  readonly tools: Readonly<Record<string, string>>;
  /** The same keys → the approved tool's text (toolText), for the card of a change. */
  readonly texts?: Readonly<Record<string, string>>;
}

/**
 * approved: its fingerprint is the one approved; new: first seen, recorded, and used;
 * unapproved: first seen where new tools are not taken on sight (checkTools with
 * acceptNew false), not recorded, held for approval; changed: withheld until approved.
 */
export type ToolVerdict = { readonly state: 'approved' } | { readonly state: 'new' } | { readonly state: 'unapproved' } | { readonly state: 'changed'; readonly approved: string; readonly before?: string };

/** Of two verdicts for one name (a listing that holds a name twice), the one kept: the less trusting. */
const RANK: Readonly<Record<ToolVerdict['state'], number>> = { approved: 0, new: 1, unapproved: 2, changed: 3 };

const key = (...parts: string[]): string => parts.join('\0');
const isRecord = (value: unknown): value is Record<string, string> => !!value && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v));

export class McpTrust {
  private servers: Record<string, string>;
  private tools: Record<string, string>;
  private texts: Record<string, string>;

  /** `saved`: what storage held (anything that is not trust data counts as nothing approved). */
  constructor(saved: unknown, private readonly save: (data: TrustData) => void) {
    const data = saved as Partial<TrustData> | undefined;
    this.servers = isRecord(data?.servers) ? { ...data.servers } : {};
    this.tools = isRecord(data?.tools) ? { ...data.tools } : {};
    const texts = data?.texts as unknown;
    this.texts = texts && typeof texts === 'object' && !Array.isArray(texts) ? Object.fromEntries(Object.entries(texts).filter(([, v]) => typeof v === 'string')) : {};
  }

  /** Whether this workspace's server, configured exactly so, was approved. */
  serverApproved(workspace: string, server: string, hash: string): boolean {
    return this.servers[key(workspace, server)] === hash;
  }

  /** Whether this workspace's server was ever approved (a configuration changed since reads differently). */
  serverKnown(workspace: string, server: string): boolean {
    return this.servers[key(workspace, server)] !== undefined;
  }

  approveServer(workspace: string, server: string, hash: string): void {
    this.servers[key(workspace, server)] = hash;
    this.persist();
  }

  /**
   * A tool as the server lists it now: approved (its fingerprint is the one approved),
   * new (first seen: its fingerprint is recorded, and it is used), or changed (withheld
   * until approveTool — no allow rule brings it back).
   */
  checkTool(workspace: string, server: string, tool: ToolShape): ToolVerdict {
    return this.checkTools(workspace, server, [tool], true).get(tool.name)!;
  }

  /**
   * A server's whole listing, each tool by name as checkTool says, written once. With
   * `acceptNew` false (a project server's tool first seen after the server was
   * approved), a tool never recorded is not recorded and comes back unapproved: held
   * until approveTools. A name listed twice gets the less trusting of its verdicts.
   */
  checkTools(workspace: string, server: string, tools: readonly ToolShape[], acceptNew: boolean): Map<string, ToolVerdict> {
    const verdicts = new Map<string, ToolVerdict>();
    let recorded = false;
    for (const tool of tools) {
      const k = key(workspace, server, tool.name);
      const now = toolFingerprint(tool);
      const approved = this.tools[k];
      let verdict: ToolVerdict;
      if (approved === now) verdict = { state: 'approved' };
      else if (approved !== undefined) verdict = { state: 'changed', approved, ...(this.texts[k] !== undefined ? { before: this.texts[k] } : {}) };
      else if (acceptNew) {
        this.tools[k] = now;
        this.texts[k] = toolText(tool);
        recorded = true;
        verdict = { state: 'new' };
      } else verdict = { state: 'unapproved' };
      const earlier = verdicts.get(tool.name);
      if (!earlier || RANK[verdict.state] > RANK[earlier.state]) verdicts.set(tool.name, verdict);
    }
    if (recorded) this.persist();
    return verdicts;
  }

  approveTool(workspace: string, server: string, tool: ToolShape): void {
    this.tools[key(workspace, server, tool.name)] = toolFingerprint(tool);
    this.texts[key(workspace, server, tool.name)] = toolText(tool);
    this.persist();
  }

  /**
   * The person approved the card: of `tools` (as listed now), only those whose
   * fingerprint is the one `shown` (name → fingerprint, as the card showed it) are
   * recorded, in one write — a tool changed while the card was open is not approved
   * by it. Returns the names recorded.
   */
  approveTools(workspace: string, server: string, tools: readonly ToolShape[], shown: ReadonlyMap<string, string>): string[] {
    const recorded: string[] = [];
    for (const tool of tools) {
      const now = toolFingerprint(tool);
      if (shown.get(tool.name) !== now) continue;
      this.tools[key(workspace, server, tool.name)] = now;
      this.texts[key(workspace, server, tool.name)] = toolText(tool);
      recorded.push(tool.name);
    }
    if (recorded.length > 0) this.persist();
    return recorded;
  }

  private persist(): void {
    this.save({ servers: { ...this.servers }, tools: { ...this.tools }, texts: { ...this.texts } });
  }
}
