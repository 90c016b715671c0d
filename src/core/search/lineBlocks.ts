// A file as blocks of complete lines, for the Node grep, decoded the way ripgrep sees it:
// read in 64 KiB pieces (ripgrep's buffer size), lines end at '\n', a UTF-8 BOM is
// dropped and UTF-16 with a BOM is transcoded, and a NUL byte marks the file binary.
// Bytes that are not valid UTF-8 become lone surrogates U+DC80..U+DCFF, which the
// translated patterns never match (ripgrep matches nothing in such bytes either).
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { TextDecoder } from 'node:util';

export const BLOCK_BYTES = 64 * 1024;
const MAX_LINE = 32 * 1024 * 1024;

export class BinaryFile extends Error {}
export class LineTooLong extends Error {}

export interface LineBlock {
  /** Complete lines joined by '\n', without the last newline. */
  readonly text: string;
  /** Contains bytes that were not UTF-8 (as lone surrogates): show lines through displayLine. */
  readonly lossy: boolean;
}

function isContinuation(bytes: Uint8Array, i: number, lo = 0x80, hi = 0xbf): boolean {
  const b = bytes[i];
  return b !== undefined && b >= lo && b <= hi;
}

/** Length of the valid UTF-8 sequence at `i`, or 0 (Unicode Table 3-7: no overlongs, no surrogates). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return isContinuation(bytes, i + 1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const ok = isContinuation(bytes, i + 1, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf) && isContinuation(bytes, i + 2);
    return ok ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const ok = isContinuation(bytes, i + 1, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf) && isContinuation(bytes, i + 2) && isContinuation(bytes, i + 3);
    return ok ? 4 : 0;
  }
  return 0;
}

function decode(bytes: Buffer): LineBlock {
  if (isUtf8(bytes)) return { text: bytes.toString('utf8'), lossy: false };
  let text = '';
  let run = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    text += bytes.toString('utf8', run, i) + String.fromCharCode(0xdc00 + bytes[i]!);
    run = ++i;
  }
  return { text: text + bytes.toString('utf8', run), lossy: true };
}

const utf8 = new TextDecoder('utf-8');
const ESCAPED = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]+/g;

/** A lossy line as ripgrep's JSON shows it: invalid bytes replaced (WHATWG), like TextDecoder. */
export function displayLine(line: string): string {
  return line.replace(ESCAPED, (run) => utf8.decode(Uint8Array.from(run, (c) => c.charCodeAt(0) - 0xdc00)));
}

/**
 * Throws BinaryFile when a NUL shows up in what is read, LineTooLong past 32 MiB. Reads are
 * synchronous: for a walk over thousands of files a thread-pool round trip per read costs
 * several times the read itself; the caller yields to the event loop between blocks.
 */
export function* lineBlocks(fd: number): Generator<LineBlock, void, undefined> {
  const buffer = Buffer.allocUnsafe(BLOCK_BYTES);
  let carry: Buffer | undefined;
  let utf16: TextDecoder | undefined;
  let textCarry = '';
  for (let position = 0; ; ) {
    const bytesRead = fs.readSync(fd, buffer, 0, BLOCK_BYTES, position);
    if (bytesRead === 0) break;
    let chunk = buffer.subarray(0, bytesRead);
    if (position === 0) {
      if (chunk[0] === 0xff && chunk[1] === 0xfe) utf16 = new TextDecoder('utf-16le');
      else if (chunk[0] === 0xfe && chunk[1] === 0xff) utf16 = new TextDecoder('utf-16be');
      else if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    position += bytesRead;
    if (utf16) {
      const text = textCarry + utf16.decode(chunk, { stream: true });
      if (text.includes('\0')) throw new BinaryFile();
      const end = text.lastIndexOf('\n');
      textCarry = end === -1 ? text : text.slice(end + 1);
      if (textCarry.length > MAX_LINE) throw new LineTooLong();
      if (end !== -1) yield { text: text.slice(0, end), lossy: false };
      continue;
    }
    if (chunk.indexOf(0) !== -1) throw new BinaryFile();
    const data = carry ? Buffer.concat([carry, chunk]) : chunk;
    const end = data.lastIndexOf(0x0a);
    // `buffer` is reused by the next read: keep a copy of the unfinished line.
    carry = end + 1 < data.length ? Buffer.from(data.subarray(end + 1)) : undefined;
    if ((carry?.length ?? 0) > MAX_LINE) throw new LineTooLong();
    if (end !== -1) yield decode(data.subarray(0, end));
  }
  if (utf16) {
    const last = textCarry + utf16.decode();
    if (last !== '') yield { text: last, lossy: false };
  } else if (carry) {
    yield decode(carry);
  }
}
