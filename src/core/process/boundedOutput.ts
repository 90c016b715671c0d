// A command's combined output, bounded: the first and the last bytes are kept, the
// middle is counted and dropped. Decoded once at the end, so a multi-byte character
// split across chunks is never mangled; cut points are moved to character boundaries.

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/** Length of `bytes` without a trailing incomplete UTF-8 sequence. */
function completePrefix(bytes: Buffer): number {
  let i = bytes.length - 1;
  let back = 0;
  while (i >= 0 && back < 3 && isContinuation(bytes[i])) {
    i--;
    back++;
  }
  if (i < 0) return bytes.length;
  const lead = bytes[i]!;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - i >= needed ? bytes.length : i;
}

/** Offset of the first byte of `bytes` that starts a character. */
function firstCharStart(bytes: Buffer): number {
  let i = 0;
  while (i < 3 && isContinuation(bytes[i])) i++;
  return i;
}

export interface OutputSummary {
  readonly text: string;
  readonly truncated: boolean;
  readonly totalBytes: number;
  readonly omittedBytes: number;
}

export class BoundedOutput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(
    private readonly headLimit: number,
    private readonly tailLimit: number,
  ) {}

  get totalBytes(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(chunk.length, this.headLimit - this.headBytes);
      this.head.push(chunk.subarray(0, take));
      this.headBytes += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.tailLimit) this.tailBytes -= this.tail.shift()!.length;
  }

  summary(): OutputSummary {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailLimit) tail = tail.subarray(tail.length - this.tailLimit);
    const omitted = this.total - head.length - tail.length;
    const decoder = new TextDecoder();
    if (omitted === 0) return { text: decoder.decode(Buffer.concat([head, tail])), truncated: false, totalBytes: this.total, omittedBytes: 0 };
    const headText = decoder.decode(head.subarray(0, completePrefix(head)));
    const tailText = decoder.decode(tail.subarray(firstCharStart(tail)));
    return {
      text: `${headText}\n[… ${omitted} bytes of output omitted …]\n${tailText}`,
      truncated: true,
      totalBytes: this.total,
      omittedBytes: omitted,
    };
  }
}
