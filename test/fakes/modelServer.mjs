// A scripted model server that speaks both streaming protocols the official SDKs use:
// Anthropic Messages (POST /v1/messages) and OpenAI Chat Completions
// (POST /v1/chat/completions). Each request takes the next scripted reply:
//   { text?, toolCalls?: [{ id, name, arguments }], thinking?, cut?: 'in-tool-call',
//     status?, retryAfter?, stall?, hold? }
// `hold`: nothing is sent (not a byte) until `release()`, as a model slow to its first token.
// `route(name, …)` scripts one subagent's requests apart from the rest, and every request body is recorded (an Anthropic request without `stream` gets the
// message as JSON). Loopback only.
// `flavor` makes it answer as a local server does besides (`GET /v1/models` and what it
// tells of a model's context window, in the real servers' shapes): 'ollama'
// (POST /api/show), 'lmstudio' (GET /api/v0/models/:id), 'vllm' (max_model_len in the
// list), 'llamacpp' (GET /props). Those requests are kept apart, in `infoRequests`.
import http from 'node:http';

const halves = (s) => [s.slice(0, Math.ceil(s.length / 2)), s.slice(Math.ceil(s.length / 2))];

function anthropicEvents(reply, model) {
  const events = [['message_start', { message: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 40, cache_creation_input_tokens: 10 } } }]];
  let index = 0;
  if (reply.thinking) {
    events.push(['content_block_start', { index, content_block: { type: 'thinking', thinking: '' } }]);
    events.push(['content_block_delta', { index, delta: { type: 'thinking_delta', thinking: reply.thinking } }]);
    events.push(['content_block_delta', { index, delta: { type: 'signature_delta', signature: 'sig-fake' } }]);
    events.push(['content_block_stop', { index }]);
    index++;
  }
  if (reply.text) {
    events.push(['content_block_start', { index, content_block: { type: 'text', text: '' } }]);
    for (const part of halves(reply.text)) if (part) events.push(['content_block_delta', { index, delta: { type: 'text_delta', text: part } }]);
    events.push(['content_block_stop', { index }]);
    index++;
  }
  for (const [n, call] of (reply.toolCalls ?? []).entries()) {
    events.push(['content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }]);
    const [a, b] = halves(call.arguments);
    events.push(['content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: a } }]);
    if (reply.cut === 'in-tool-call' && n === 0) return events; // the stream ends inside the call's JSON
    events.push(['content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: b } }]);
    events.push(['content_block_stop', { index }]);
    index++;
  }
  events.push(['message_delta', { delta: { stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }]);
  events.push(['message_stop', {}]);
  return events;
}

function openaiChunks(reply, model) {
  const chunk = (delta, finish = null) => ({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  for (const part of halves(reply.text ?? '')) if (part) chunks.push(chunk({ content: part }));
  for (const [n, call] of (reply.toolCalls ?? []).entries()) {
    const [a, b] = halves(call.arguments);
    chunks.push(chunk({ tool_calls: [{ index: n, id: call.id, type: 'function', function: { name: call.name, arguments: a } }] }));
    if (reply.cut === 'in-tool-call' && n === 0) return chunks;
    chunks.push(chunk({ tool_calls: [{ index: n, function: { arguments: b } }] }));
  }
  chunks.push(chunk({}, reply.toolCalls?.length ? 'tool_calls' : 'stop'));
  chunks.push({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model, choices: [], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 40 } } });
  return chunks;
}

const OWNERS = { ollama: 'library', lmstudio: 'organization_owner', vllm: 'vllm', llamacpp: 'llamacpp' };

/** What a local server of `flavor` answers about its models, or undefined for a request it does not serve. */
function serverInfo(flavor, method, url, body, models, contextLength, numCtx) {
  if (method === 'GET' && url === '/v1/models') {
    return { status: 200, body: { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1, owned_by: OWNERS[flavor] ?? 'fake', ...(flavor === 'vllm' ? { root: id, parent: null, max_model_len: contextLength } : {}), ...(flavor === 'llamacpp' ? { meta: { n_ctx_train: contextLength * 4 } } : {}) })) } };
  }
  if (flavor === 'ollama' && method === 'POST' && url === '/api/show') {
    const name = JSON.parse(body || '{}').model;
    if (!models.includes(name)) return { status: 404, body: { error: `model '${name}' not found` } };
    return { status: 200, body: { license: '', modelfile: `FROM ${name}`, parameters: `stop "<|im_end|>"${numCtx ? `\nnum_ctx ${numCtx}` : ''}`, template: '{{ .Prompt }}', details: { format: 'gguf', family: 'qwen2', parameter_size: '7.6B', quantization_level: 'Q4_K_M' }, model_info: { 'general.architecture': 'qwen2', 'qwen2.block_count': 28, 'qwen2.context_length': contextLength } } };
  }
  if (flavor === 'lmstudio' && method === 'GET' && url.startsWith('/api/v0/models/')) {
    const id = decodeURIComponent(url.slice('/api/v0/models/'.length));
    if (!models.includes(id)) return { status: 404, body: { error: `Model "${id}" not found` } };
    return { status: 200, body: { id, object: 'model', type: 'llm', publisher: 'lmstudio-community', arch: 'qwen2', compatibility_type: 'gguf', quantization: 'Q4_K_M', state: 'loaded', max_context_length: contextLength * 4, loaded_context_length: contextLength } };
  }
  if (flavor === 'llamacpp' && method === 'GET' && url === '/props') {
    return { status: 200, body: { default_generation_settings: { n_ctx: contextLength, temperature: 0.8 }, total_slots: 1, model_path: `/models/${models[0]}.gguf` } };
  }
  if (method === 'POST' && url === '/api/show') return { status: 404, body: { error: 'not served' } };
  if (method === 'GET' && (url.startsWith('/api/v0/') || url === '/props')) return { status: 404, body: { error: 'not served' } };
  return undefined;
}

/**
 * `port`: a fixed port; default any free one. `models`: what GET /v1/models lists.
 * `flavor` and `contextLength`: which local server it also answers as, and the window it reports
 * (`numCtx`: an Ollama Modelfile's own num_ctx).
 * @param {{ port?: number, models?: string[], flavor?: 'ollama' | 'lmstudio' | 'vllm' | 'llamacpp', contextLength?: number, numCtx?: number }} [options]
 */
export async function startModelServer({ port = 0, models = ['fake-model'], flavor = undefined, contextLength = 32768, numCtx = undefined } = {}) {
  const queue = [];
  let always;
  /** Replies for one subagent's requests, by its name (found in its system prompt), so concurrent children each get theirs. */
  const routes = new Map();
  const systemOf = (body) => {
    try {
      const parsed = JSON.parse(body);
      return JSON.stringify(parsed.system ?? parsed.messages?.[0]?.content ?? '');
    } catch {
      return '';
    }
  };
  const routedReply = (body) => {
    if (routes.size === 0 || !body) return undefined;
    const system = systemOf(body);
    for (const [name, replies] of routes) {
      if (system.includes(`You are the subagent \\"${name}\\"`) && replies.length > 0) return replies.shift();
    }
    return undefined;
  };
  const requests = [];
  const infoRequests = [];
  const open = new Set();
  /** Held replies, in arrival order, each sent by `release()`. */
  const held = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      // What a client asks about the server (its models, a model's window) is not a model request.
      const info = serverInfo(flavor, req.method, req.url, body, models, contextLength, numCtx);
      if (info) {
        infoRequests.push({ method: req.method, url: req.url, body: body ? JSON.parse(body) : undefined });
        res.writeHead(info.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(info.body));
        return;
      }
      const protocol = req.url.startsWith('/v1/messages') ? 'anthropic' : req.url.startsWith('/v1/chat/completions') ? 'openai' : undefined;
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: body ? JSON.parse(body) : undefined });
      const reply = routedReply(body) ?? queue.shift() ?? always;
      if (!protocol || !reply) {
        res.writeHead(protocol ? 500 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'fake_server', message: protocol ? 'no scripted reply left' : `${req.url} is not served` } }));
        return;
      }
      if (reply.hold) {
        open.add(res);
        held.push(() => {
          open.delete(res);
          if (!res.destroyed) respond(protocol, reply, body, res);
        });
        return;
      }
      respond(protocol, reply, body, res);
    });
  });
  /** One scripted reply, sent on `res`. */
  function respond(protocol, reply, body, res) {
    if (reply.status) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.retryAfter !== undefined ? { 'retry-after': String(reply.retryAfter) } : {}) });
      res.end(JSON.stringify({ type: 'error', error: { type: 'scripted', message: `scripted ${reply.status}` } }));
      return;
    }
    const parsed = JSON.parse(body);
    if (protocol === 'anthropic' && !parsed.stream) {
      // A request without `stream`: the whole message as JSON.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'msg_fake', type: 'message', role: 'assistant', model: parsed.model, content: [{ type: 'text', text: reply.text ?? '' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 100, output_tokens: 20 } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (reply.stall) {
      open.add(res);
      res.write(': stalled\n\n');
      return;
    }
    const model = parsed.model;
    if (protocol === 'anthropic') for (const [type, data] of anthropicEvents(reply, model)) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    else {
      for (const c of openaiChunks(reply, model)) res.write(`data: ${JSON.stringify(c)}\n\n`);
      if (!reply.cut) res.write('data: [DONE]\n\n');
    }
    res.end();
  }
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    port: server.address().port,
    /** Base URLs as each SDK wants them. */
    anthropicUrl: url,
    openaiUrl: `${url}/v1`,
    requests,
    infoRequests,
    script(...replies) {
      queue.push(...replies);
    },
    /** Replies for the subagent `name` only (matched by its system prompt), in order. */
    route(name, ...replies) {
      routes.set(name, [...(routes.get(name) ?? []), ...replies]);
    },
    /** Sends the oldest held reply (`hold: true`); false when none is held yet. */
    release() {
      const next = held.shift();
      next?.();
      return next !== undefined;
    },
    /** How many held replies wait for `release()`. */
    get holding() {
      return held.length;
    },
    /** Drops every scripted reply not yet used, and the recorded requests (between tests). */
    reset() {
      queue.length = 0;
      requests.length = 0;
      infoRequests.length = 0;
      routes.clear();
      always = undefined;
    },
    /** The reply for every request once the script is used up (for real agent CLIs, which may ask more than once). */
    always(reply) {
      always = reply;
    },
    close() {
      for (const res of open) res.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
