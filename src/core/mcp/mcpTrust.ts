// What the person approved of MCP, kept in user scope (the extension's global state, or
// a 0600 file under PEON_STATE_DIR for the CLI; this class holds the data and the rules,
// the face its storage): a project server's approval, bound to its configuration's hash
// (serverApproval.ts) and to the workspace it belongs to; and each tool's fingerprint —
// name, description, input and output schemas, annotations — when first seen. A tool
// whose fingerprint changed is withheld until approved again (a "rug pull": the
// description swapped after approval); a server whose configuration changed asks again.
import { createHash } from 'node:crypto';

export interface ToolShape {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

/** JSON with object keys sorted, so the same shape always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const fingerprinted = (tool: ToolShape) => ({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema ?? null, outputSchema: tool.outputSchema ?? null, annotations: tool.annotations ?? null });

export function toolFingerprint(tool: ToolShape): string {
  return createHash('sha256').update(canonical(fingerprinted(tool))).digest('hex');
}

/** What the person reads of a tool on the card of a change: every fingerprinted part, keys sorted. */
export function toolText(tool: ToolShape): string {
  const parts = fingerprinted(tool);
  return [`name: ${parts.name}`, `description:\n${parts.description}`, ...(['inputSchema', 'outputSchema', 'annotations'] as const).filter((k) => parts[k] !== null).map((k) => `${k}: ${JSON.stringify(JSON.parse(canonical(parts[k])), null, 2)}`)].join('\n');
}

export interface TrustData {
  /** `<workspace>\0<server>` → the approved configuration's hash. */
  readonly servers: Readonly<Record<string, string>>;
  /** `<workspace>\0<server>\0<tool>` → the approved fingerprint. */
  readonly tools: Readonly<Record<string, string>>;
  /** The same keys → the approved tool's text (toolText), for the card of a change. */
  readonly texts?: Readonly<Record<string, string>>;
}

export type ToolVerdict = { readonly state: 'approved' } | { readonly state: 'new' } | { readonly state: 'changed'; readonly approved: string; readonly before?: string };

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
    const k = key(workspace, server, tool.name);
    const now = toolFingerprint(tool);
    const approved = this.tools[k];
    if (approved === now) return { state: 'approved' };
    if (approved !== undefined) return { state: 'changed', approved, ...(this.texts[k] !== undefined ? { before: this.texts[k] } : {}) };
    this.tools[k] = now;
    this.texts[k] = toolText(tool);
    this.persist();
    return { state: 'new' };
  }

  approveTool(workspace: string, server: string, tool: ToolShape): void {
    this.tools[key(workspace, server, tool.name)] = toolFingerprint(tool);
    this.texts[key(workspace, server, tool.name)] = toolText(tool);
    this.persist();
  }

  private persist(): void {
    this.save({ servers: { ...this.servers }, tools: { ...this.tools }, texts: { ...this.texts } });
  }
}
