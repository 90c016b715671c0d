// What a `tools/call` result becomes for the model (DESIGN.md §4): text stays text;
// an embedded text resource is inlined, a binary one, an image or audio is noted by
// type and size (Peon's tool results carry text); a resource link becomes its URI;
// `structuredContent` is given as compact JSON when the server sent no text. All of it
// is bounded by the output limit, the middle cut. `isError` is an error the model can
// act on, carrying the server's text.
import { formatSize } from '../../shared/format';
import type { ToolResult } from '../tools/contract';
import { ToolError } from '../tools/toolError';

type Block = Record<string, unknown>;

const base64Bytes = (data: unknown): number => (typeof data === 'string' ? Math.floor((data.replace(/=+$/, '').length * 3) / 4) : 0);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return str(block.text);
    case 'image':
    case 'audio':
      return `[${block.type} ${str(block.mimeType) || 'of unknown type'}, ${formatSize(base64Bytes(block.data))}: not passed on, Peon gives the model text only]`;
    case 'resource': {
      const resource = (block.resource ?? {}) as Block;
      const uri = str(resource.uri);
      if (typeof resource.text === 'string') return `<resource uri=${JSON.stringify(uri)}${resource.mimeType ? ` mimeType=${JSON.stringify(resource.mimeType)}` : ''}>\n${resource.text}\n</resource>`;
      return `[resource ${uri}: binary, ${str(resource.mimeType) || 'of unknown type'}, ${formatSize(base64Bytes(resource.blob))}]`;
    }
    case 'resource_link':
      return `[resource link ${str(block.uri)}${block.name ? ` (${str(block.name)})` : ''}${block.mimeType ? `, ${str(block.mimeType)}` : ''}]`;
    default:
      return `[content of type ${JSON.stringify(block.type)}, not shown]`;
  }
}

/** `text` within `max` characters: the start and the end kept, the middle cut with how much. */
export function boundMiddle(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const marker = `\n[… ${text.length - max} characters cut by Peon's output limit …]\n`;
  const keep = Math.max(0, max - marker.length);
  return { text: `${text.slice(0, Math.ceil(keep / 2))}${marker}${text.slice(text.length - Math.floor(keep / 2))}`, truncated: true };
}

export function mapCallResult(result: Block, label: string, maxChars: number): ToolResult {
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const parts = content.map(blockText).filter((t) => t !== '');
  const hasText = content.some((b) => b.type === 'text' || (b.type === 'resource' && typeof (b.resource as Block | undefined)?.text === 'string'));
  if (!hasText && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  const joined = parts.join('\n\n');
  const { text, truncated } = boundMiddle(joined, maxChars);
  if (result.isError === true) throw new ToolError('io_error', `${label} reported an error: ${text || '(no message)'}`, { isError: true });
  const kinds = [...new Set(content.map((b) => String(b.type)))];
  return {
    output: text === '' ? '(the tool returned no content)' : text,
    headline: `${label} · ${formatSize(Buffer.byteLength(joined))}${truncated ? ' (cut)' : ''}`,
    data: { content: kinds, chars: joined.length, truncated, ...(result.structuredContent !== undefined ? { structured: true } : {}) },
  };
}
