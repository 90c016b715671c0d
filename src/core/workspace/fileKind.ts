// Is a file text? Binary files get a note with their size and type, never raw bytes.

const SIGNATURES: readonly [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'PNG image'],
  [[0xff, 0xd8, 0xff], 'JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'ZIP archive'],
  [[0x1f, 0x8b], 'gzip archive'],
  [[0x7f, 0x45, 0x4c, 0x46], 'ELF executable'],
  [[0x00, 0x61, 0x73, 0x6d], 'WebAssembly module'],
  [[0x52, 0x49, 0x46, 0x46], 'RIFF media (WebP, WAV, AVI)'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], 'SQLite database'],
];

/** Bytes looked at to decide: git's and ripgrep's rule is a NUL byte in the first 8 KiB. */
export const SNIFF_BYTES = 8192;

/** The binary type of a file from its first bytes, or undefined for text. */
export function binaryKind(head: Uint8Array): string | undefined {
  for (const [signature, kind] of SIGNATURES) {
    if (signature.every((byte, i) => head[i] === byte)) return kind;
  }
  return head.subarray(0, SNIFF_BYTES).includes(0) ? 'binary data' : undefined;
}
