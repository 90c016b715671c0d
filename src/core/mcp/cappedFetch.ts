// `peon.mcp.maxMessageMB` for HTTP servers, as the stdio transport applies it: every
// response body the SDK's HTTP transports read is counted, and past the cap the stream
// errors and `onExceeded` closes the connection, so the pending call fails as
// `too_large` instead of the host buffering a 64 MB answer. (A long-lived SSE stream
// counts all it carries.)
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export function cappedFetch(maxBytes: number, onExceeded: () => void): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body) return response;
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) {
            controller.error(new Error(`the server sent more than ${Math.round(maxBytes / 1048576)} MB`));
            onExceeded();
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
