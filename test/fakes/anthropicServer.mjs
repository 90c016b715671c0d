// A local server that answers the Anthropic Messages API the way the official clients
// expect (JSON, or server-sent events when `stream` is set) with one scripted text
// reply, and records what it was asked. Loopback only.
import http from 'node:http';

export function startAnthropicServer(reply) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, body });
      if (req.method === 'POST' && /^\/v1\/messages(\?|$)/.test(req.url ?? '')) {
        const request = JSON.parse(body || '{}');
        const usage = { input_tokens: 10, output_tokens: 5 };
        if (!request.stream) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'msg_peon', type: 'message', role: 'assistant', model: request.model, content: [{ type: 'text', text: reply }], stop_reason: 'end_turn', stop_sequence: null, usage }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const send = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
        send('message_start', { message: { id: 'msg_peon', type: 'message', role: 'assistant', model: request.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
        send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply } });
        send('content_block_stop', { index: 0 });
        send('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
        send('message_stop', {});
        res.end();
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `${req.method} ${req.url} is not served here` } }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((r) => server.close(r)) })),
  );
}
