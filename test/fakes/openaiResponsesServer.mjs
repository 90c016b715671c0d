// A local server that answers the OpenAI Responses API (POST /v1/responses, streamed as
// server-sent events) with one scripted text reply, and records what it was asked.
// Loopback only.
import http from 'node:http';

export function startResponsesServer(reply) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, body });
      if (req.method !== 'POST' || !/\/responses$/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `${req.method} ${req.url} is not served here`, type: 'not_found' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      const item = { id: 'msg_peon', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply, annotations: [] }] };
      const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
      send('response.created', { response: { id: 'resp_peon', status: 'in_progress', output: [] } });
      send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
      send('response.output_text.delta', { item_id: 'msg_peon', output_index: 0, content_index: 0, delta: reply });
      send('response.output_item.done', { output_index: 0, item });
      send('response.completed', { response: { id: 'resp_peon', status: 'completed', output: [item], usage } });
      res.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((r) => server.close(r)) })),
  );
}
