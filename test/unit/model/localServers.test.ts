import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { askContextWindow, findLocalServers, isLoopbackUrl, LOCAL_SERVERS, localPorts } from '../../../src/core/model/localServers';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { freePort } from '../../vscode/codeServer.mjs';

// The model servers on this machine, found and asked over real loopback HTTP: scripted
// stand-ins answering as Ollama, LM Studio, vLLM and llama.cpp do (their endpoints'
// shapes), on ephemeral ports; nothing depends on the usual ports being free.
type Fake = Awaited<ReturnType<typeof startModelServer>>;
let ollama: Fake, lmStudio: Fake, vllm: Fake, llamaCpp: Fake, plain: Fake;
let notModels: http.Server, silent: net.Server, redirecting: http.Server;
const silentSockets = new Set<net.Socket>();
let closedPort: number;
const portOf = (server: http.Server | net.Server): number => (server.address() as net.AddressInfo).port;
const listen = async <S extends http.Server | net.Server>(server: S): Promise<S> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
};

beforeAll(async () => {
  [ollama, lmStudio, vllm, llamaCpp, plain] = await Promise.all([
    startModelServer({ flavor: 'ollama', models: ['qwen2.5-coder:7b', 'llama3.2:3b'], contextLength: 32768 }),
    startModelServer({ flavor: 'lmstudio', models: ['qwen/qwen3-8b'], contextLength: 8192 }),
    startModelServer({ flavor: 'vllm', models: ['Qwen/Qwen2.5-7B-Instruct'], contextLength: 16384 }),
    startModelServer({ flavor: 'llamacpp', models: ['gemma-3-4b'], contextLength: 4096 }),
    startModelServer({ models: ['fake-model'] }),
  ]);
  // A web server that is not a model server, one that accepts and never answers, and one that redirects.
  notModels = await listen(http.createServer((_req, res) => res.writeHead(404).end('<h1>Not found</h1>')));
  silent = await listen(net.createServer((socket) => silentSockets.add(socket)));
  redirecting = await listen(http.createServer((_req, res) => res.writeHead(302, { location: `${plain.openaiUrl}/models` }).end()));
  closedPort = await freePort();
});

afterAll(async () => {
  for (const socket of silentSockets) socket.destroy();
  await Promise.all([ollama, lmStudio, vllm, llamaCpp, plain].map((s) => s?.close()));
  await Promise.all([notModels, silent, redirecting].map((s) => new Promise((resolve) => s?.close(resolve))));
});

describe('finding the servers on this machine', () => {
  test('each answering server, named from its answer, with its models; a closed port, a web server, a silent port and a redirect are left out', async () => {
    const ports = [ollama.port, closedPort, lmStudio.port, portOf(notModels), vllm.port, portOf(silent), llamaCpp.port, portOf(redirecting), plain.port];
    const found = await findLocalServers(ports, 500);
    expect(found).toEqual([
      { name: 'Ollama', baseUrl: `http://127.0.0.1:${ollama.port}/v1`, models: ['qwen2.5-coder:7b', 'llama3.2:3b'] },
      { name: 'LM Studio', baseUrl: `http://127.0.0.1:${lmStudio.port}/v1`, models: ['qwen/qwen3-8b'] },
      { name: 'vLLM', baseUrl: `http://127.0.0.1:${vllm.port}/v1`, models: ['Qwen/Qwen2.5-7B-Instruct'] },
      { name: 'llama.cpp', baseUrl: `http://127.0.0.1:${llamaCpp.port}/v1`, models: ['gemma-3-4b'] },
      { name: 'Local server', baseUrl: `http://127.0.0.1:${plain.port}/v1`, models: ['fake-model'] },
    ]);
    // The redirect was not followed: the server it pointed at was asked only by the probe of its own port.
    expect(plain.infoRequests.filter((r) => r.url === '/v1/models')).toHaveLength(1);
  });

  test('the usual ports, unless PEON_LOCAL_MODEL_PORTS lists others', () => {
    expect(localPorts({})).toEqual([11434, 1234, 8080, 8000]);
    expect(LOCAL_SERVERS.map((s) => s.name)).toEqual(['Ollama', 'LM Studio', 'llama.cpp', 'vLLM']);
    expect(localPorts({ PEON_LOCAL_MODEL_PORTS: '41000, 41001' })).toEqual([41000, 41001]);
    expect(localPorts({ PEON_LOCAL_MODEL_PORTS: 'none,70000' })).toEqual([11434, 1234, 8080, 8000]);
  });

  test.each([
    ['http://127.0.0.1:11434/v1', true],
    ['http://127.8.9.10:1234/v1', true],
    ['http://localhost:8000/v1', true],
    ['http://[::1]:8080/v1', true],
    ['https://api.openai.com/v1', false],
    ['http://192.168.1.20:11434/v1', false],
    ['http://127.0.0.1.evil.example/v1', false],
    ['http://localhost.evil.example/v1', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('%s is on this machine: %s', (url, local) => {
    expect(isLoopbackUrl(url)).toBe(local);
  });
});

describe("a model's context window, asked of its server", () => {
  test.each([
    ['Ollama (the model file)', () => ollama, 'qwen2.5-coder:7b', 32768],
    ['LM Studio (as loaded)', () => lmStudio, 'qwen/qwen3-8b', 8192],
    ['vLLM (max_model_len)', () => vllm, 'Qwen/Qwen2.5-7B-Instruct', 16384],
    ['llama.cpp (its slots)', () => llamaCpp, 'gemma-3-4b', 4096],
    ['a server that cannot tell', () => plain, 'fake-model', undefined],
  ])('%s', async (_what, server, model, window) => {
    expect(await askContextWindow(server().openaiUrl, model)).toBe(window);
  });

  test("Ollama's num_ctx wins over the model's trained length; the answer is kept, not asked again", async () => {
    const tuned = await startModelServer({ flavor: 'ollama', models: ['qwen3:8b'], contextLength: 40960, numCtx: 12288 });
    try {
      expect(await askContextWindow(tuned.openaiUrl, 'qwen3:8b')).toBe(12288);
      const asked = tuned.infoRequests.length;
      expect(await askContextWindow(`${tuned.openaiUrl}/`, 'qwen3:8b')).toBe(12288);
      expect(tuned.infoRequests.length).toBe(asked);
      // A model the server does not have: it cannot tell.
      expect(await askContextWindow(tuned.openaiUrl, 'missing:1b')).toBeUndefined();
    } finally {
      await tuned.close();
    }
  });

  test('a server that is down is asked again next time; one off this machine is never asked', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      expect(await askContextWindow('https://api.openai.com/v1', 'gpt-5.5')).toBeUndefined();
      expect(await askContextWindow('http://192.168.1.20:11434/v1', 'qwen3:8b')).toBeUndefined();
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(await askContextWindow(`http://127.0.0.1:${closedPort}/v1`, 'late:1b')).toBeUndefined();
      const late = await startModelServer({ port: closedPort, flavor: 'ollama', models: ['late:1b'], contextLength: 2048 });
      try {
        expect(await askContextWindow(`http://127.0.0.1:${closedPort}/v1`, 'late:1b')).toBe(2048);
      } finally {
        await late.close();
      }
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
