// What a `tools/call` result becomes for the model (DESIGN.md §4): text stays text;
// an image (PNG, JPEG, GIF, WebP, bounded) is attached for a model that takes images —
// the client of one that does not says it was not passed on; an embedded text resource
// is inlined, a binary one or audio noted by type and size; a resource link becomes its URI;
// `structuredContent` is given as compact JSON when the server sent no text. All of it
// is bounded by the output limit, the middle cut. `isError` is an error the model can
// act on, carrying the server's text.
import { formatSize } from '../../shared/format';
import type { ToolImage, ToolResult } from '../tools/contract';
import { ToolError } from '../tools/toolError';

type Block = Record<string, unknown>;

const base64Bytes = (data: unknown): number => (typeof data === 'string' ? Math.floor((data.replace(/=+$/, '').length * 3) / 4) : 0);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** What one result may attach: at most this many images, each at most this large (decoded). */
export const MAX_IMAGES = 4;
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

function blockText(block: Block, images: ToolImage[]): string {
  switch (block.type) {
    case 'text':
      return str(block.text);
    case 'image': {
      const type = str(block.mimeType);
      const bytes = base64Bytes(block.data);
      const what = `[image ${type || 'of unknown type'}, ${formatSize(bytes)}`;
      if (!IMAGE_TYPES.has(type) || typeof block.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(block.data)) return `${what}: not passed on (only PNG, JPEG, GIF and WebP are)]`;
      if (bytes > MAX_IMAGE_BYTES) return `${what}: not passed on (over ${formatSize(MAX_IMAGE_BYTES)})]`;
      if (images.length >= MAX_IMAGES) return `${what}: not passed on (at most ${MAX_IMAGES} images a result)]`;
      images.push({ mimeType: type as ToolImage['mimeType'], data: block.data });
      return `${what}, attached as image ${images.length}]`;
    }
    case 'audio':
      return `[audio ${str(block.mimeType) || 'of unknown type'}, ${formatSize(base64Bytes(block.data))}: not passed on, Peon gives the model no audio]`;
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
  const images: ToolImage[] = [];
  const kinds: string[] = [];
  let joined = '';
  let hasText = false;
  // One pass: the usual result is a single text block, and this runs for every call (B16).
  for (const block of content) {
    const kind = String(block.type);
    if (!kinds.includes(kind)) kinds.push(kind);
    if (kind === 'text' || (kind === 'resource' && typeof (block.resource as Block | undefined)?.text === 'string')) hasText = true;
    const part = blockText(block, images);
    if (part !== '') joined = joined === '' ? part : `${joined}\n\n${part}`;
  }
  if (!hasText && result.structuredContent !== undefined) {
    const structured = JSON.stringify(result.structuredContent);
    joined = joined === '' ? structured : `${joined}\n\n${structured}`;
  }
  const { text, truncated } = boundMiddle(joined, maxChars);
  if (result.isError === true) throw new ToolError('io_error', `${label} reported an error: ${text || '(no message)'}`, { isError: true });
  return {
    output: text === '' ? '(the tool returned no content)' : text,
    ...(images.length > 0 ? { images } : {}),
    headline: `${label} · ${formatSize(Buffer.byteLength(joined))}${truncated ? ' (cut)' : ''}`,
    data: { content: kinds, chars: joined.length, truncated, ...(result.structuredContent !== undefined ? { structured: true } : {}) },
  };
}
