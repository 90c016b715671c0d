// A response body read with a cap (DESIGN.md §4: 10 MiB): decompressed as it arrives,
// and when the cap is reached the read stops and the connection is closed — a server
// that sends 50 MB, or a compressed bomb, costs at most the cap.
import type http from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** The most webfetch reads of one body. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface Body {
  readonly bytes: Buffer;
  /** The cap was reached: the rest was not read. */
  readonly truncated: boolean;
  /** The server closed the connection before the body was complete. */
  readonly incomplete: boolean;
}

function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const options = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(zlib.createGunzip(options));
  if (encoding === 'deflate') return response.pipe(zlib.createInflate(options));
  if (encoding === 'br') return response.pipe(zlib.createBrotliDecompress());
  return response;
}

/** Reads the body up to `max` bytes; rejects with the signal's reason when it aborts (Stop, the deadline). */
export function readBody(response: http.IncomingMessage, max: number, signal: AbortSignal): Promise<Body> {
  const stream = decoded(response);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: unknown, truncated = false, incomplete = false): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error !== undefined) {
        response.destroy();
        stream.destroy();
        reject(error);
        return;
      }
      if (truncated) {
        response.destroy();
        stream.destroy();
      }
      resolve({ bytes: Buffer.concat(chunks, size), truncated, incomplete });
    };
    const onAbort = (): void => finish(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      const room = max - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= max) finish(undefined, true);
    });
    stream.once('end', () => finish(undefined));
    // A connection reset mid-body keeps what arrived, marked incomplete; a corrupt compressed stream is an error.
    stream.once('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? finish(undefined, false, true) : finish(error)));
    // A server that closes early ends the read with what arrived (Node reports 'aborted' on the response).
    response.once('aborted', () => finish(undefined, false, true));
  });
}
