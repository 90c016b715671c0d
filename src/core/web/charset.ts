// Bytes to text the way a browser picks the encoding: a byte-order mark, else the
// Content-Type charset, else (HTML) a <meta> in the first 1024 bytes or (XML) the
// declaration, else UTF-8 when the bytes are valid UTF-8, else Windows-1252. Labels go
// through TextDecoder, which knows the WHATWG names (Shift_JIS, EUC-KR, GBK, …).
import { TextDecoder } from 'node:util';

export interface DecodedText {
  readonly text: string;
  /** The encoding used, as TextDecoder names it (`utf-8`, `shift_jis`, `windows-1252`). */
  readonly encoding: string;
  /** Said when the declared encoding was unknown here and another was used. */
  readonly note?: string;
}

/** The `charset` parameter of a Content-Type header. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? '');
  return match?.[2];
}

/** An HTML page's <meta charset> or <meta http-equiv="Content-Type" content="…; charset=…"> in its first 1024 bytes. */
function metaCharset(head: string): string | undefined {
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    if (direct) return direct[1];
  }
  return undefined;
}

function xmlDeclared(head: string): string | undefined {
  return /^<\?xml\b[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head.trimStart())?.[1];
}

function bomOf(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

interface Decoder {
  readonly encoding: string;
  decode(bytes: Uint8Array): string;
}

/** Windows-1252's 0x80–0x9F (0 where it defines nothing, and the byte stays a C1 control, as WHATWG says). */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/**
 * Windows-1252, which WHATWG also uses for `iso-8859-1`, `latin1` and `us-ascii` labels.
 * Node 20's TextDecoder decodes it as Latin-1 (0x93 becomes U+0093, not “), so Peon maps
 * the 32 bytes that differ itself.
 */
const windows1252: Decoder = {
  encoding: 'windows-1252',
  decode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1').replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80] || c.charCodeAt(0))),
};

function decoderFor(label: string): Decoder | undefined {
  try {
    const decoder = new TextDecoder(label.trim());
    return decoder.encoding === 'windows-1252' ? windows1252 : decoder;
  } catch {
    return undefined;
  }
}

export function decodeText(bytes: Uint8Array, contentType: string | undefined, kind: 'html' | 'xml' | 'text'): DecodedText {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  const declared = bomOf(bytes) ?? charsetOf(contentType) ?? (kind === 'html' ? metaCharset(head) : kind === 'xml' ? xmlDeclared(head) : undefined);
  let note: string | undefined;
  if (declared) {
    const decoder = decoderFor(declared);
    // UTF-16 declared in a <meta> cannot be true of bytes that were read as ASCII to find it (HTML spec).
    if (decoder && !(decoder.encoding.startsWith('utf-16') && !bomOf(bytes) && !charsetOf(contentType))) {
      return { text: decoder.decode(bytes), encoding: decoder.encoding };
    }
    if (!decoder) note = `the page declares the encoding ${JSON.stringify(declared)}, which is not known here`;
  }
  try {
    // `stream`: a body cut at the cap may end inside a character; that is not a reason to doubt UTF-8.
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true }), encoding: 'utf-8', ...(note ? { note } : {}) };
  } catch {
    return { text: windows1252.decode(bytes), encoding: 'windows-1252', ...(note ? { note } : {}) };
  }
}
