// What a response body is, from its Content-Type and its first bytes: HTML (converted
// to Markdown), text webfetch returns as it is (plain text, JSON, XML, scripts, CSV…),
// or binary (noted with its type and size, never returned). The bytes win over a
// header that lies: a PNG served as text/html is still a PNG.

export type BodyKind = 'html' | 'xml' | 'text' | 'binary';

const MAGIC: readonly { readonly bytes: readonly number[]; readonly type: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], type: 'image/png' },
  { bytes: [0xff, 0xd8, 0xff], type: 'image/jpeg' },
  { bytes: [0x47, 0x49, 0x46, 0x38], type: 'image/gif' },
  { bytes: [0x25, 0x50, 0x44, 0x46], type: 'application/pdf' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], type: 'application/zip' },
  { bytes: [0x1f, 0x8b], type: 'application/gzip' },
  { bytes: [0x52, 0x49, 0x46, 0x46], type: 'application/octet-stream (RIFF)' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], type: 'application/x-elf' },
  { bytes: [0x00, 0x61, 0x73, 0x6d], type: 'application/wasm' },
];

const TEXT_TYPES = /^(text\/|application\/(json|ld\+json|manifest\+json|javascript|ecmascript|x-javascript|x-sh|x-yaml|yaml|toml|x-toml|sql|graphql|x-ndjson|csv|x-www-form-urlencoded)$)|\+json$/;
const XML_TYPES = /^(application|text)\/(xml|xhtml\+xml|rss\+xml|atom\+xml)$|\+xml$/;

/** The media type's essence: `text/html; charset=utf-8` → `text/html`. */
export function essenceOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function bodyKind(contentType: string | undefined, bytes: Uint8Array): { kind: BodyKind; type: string } {
  const magic = MAGIC.find((m) => m.bytes.every((b, i) => bytes[i] === b));
  if (magic) return { kind: 'binary', type: essenceOf(contentType) || magic.type };
  const type = essenceOf(contentType);
  // NUL bytes are not text, whatever the header says, unless the text is UTF-16 (declared, or by its byte-order mark).
  const utf16 = /charset\s*=\s*"?utf-16/i.test(contentType ?? '') || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (!utf16 && bytes.subarray(0, 1024).includes(0)) return { kind: 'binary', type: type || 'application/octet-stream' };
  if (type === 'text/html' || type === 'application/xhtml+xml') return { kind: 'html', type };
  if (XML_TYPES.test(type)) return { kind: looksLikeHtml(bytes) ? 'html' : 'xml', type };
  if (TEXT_TYPES.test(type)) return { kind: 'text', type };
  if (type !== '' && type !== 'application/octet-stream' && type !== 'unknown/unknown') return { kind: 'binary', type };
  // No type, or a generic one: sniff.
  return { kind: looksLikeHtml(bytes) ? 'html' : 'text', type: type || 'unknown' };
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || (head.startsWith('<?xml') && head.includes('<html'));
}
