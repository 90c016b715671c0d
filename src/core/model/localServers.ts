// OpenAI-compatible model servers on this machine: which answer on their usual ports
// (Ollama, LM Studio, llama.cpp, vLLM), the models they list, and a model's context
// window where the server can tell. Every request goes to a loopback address only, never
// follows a redirect, and gives up after a short timeout: a port nobody answers on costs
// at most that, and nothing here runs unless a person is choosing a model or a turn starts.
import { classifyAddress, parseIpLiteral } from '../web/ipAddress';

/** A server kind, the port it usually listens on, and how its `/v1/models` entries say who they are (`owned_by`). */
export const LOCAL_SERVERS: readonly { readonly name: string; readonly port: number; readonly ownedBy: string }[] = [
  { name: 'Ollama', port: 11434, ownedBy: 'library' },
  { name: 'LM Studio', port: 1234, ownedBy: 'organization_owner' },
  { name: 'llama.cpp', port: 8080, ownedBy: 'llamacpp' },
  { name: 'vLLM', port: 8000, ownedBy: 'vllm' },
];

/** How long one request to a local server may take (a closed port answers at once; this bounds a stuck one). */
export const PROBE_TIMEOUT_MS = 1500;

export interface LocalServer {
  /** What it is ("Ollama"), from its answer, else its port's usual server, else "Local server". */
  readonly name: string;
  /** Its OpenAI-compatible base URL (`http://127.0.0.1:11434/v1`). */
  readonly baseUrl: string;
  readonly models: string[];
}

/** At most this many models of a server are offered (a server with hundreds lists the first). */
const MAX_MODELS = 50;

/** A base URL on this machine (127.0.0.0/8, ::1, localhost): a local server, which needs no API key. */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    host = parsed.hostname;
  } catch {
    return false;
  }
  if (host === 'localhost') return true;
  const ip = parseIpLiteral(host);
  return ip !== undefined && !('invalid' in ip) && classifyAddress(host) === 'loopback';
}

/** The ports to probe: the usual ones, or those PEON_LOCAL_MODEL_PORTS lists (comma-separated; the tests' servers). */
export function localPorts(env: Record<string, string | undefined> = {}): number[] {
  const listed = env.PEON_LOCAL_MODEL_PORTS?.split(',').map((p) => Number(p.trim()));
  const valid = listed?.filter((p) => Number.isInteger(p) && p > 0 && p < 65536);
  return valid && valid.length > 0 ? valid : LOCAL_SERVERS.map((s) => s.port);
}

/** GETs or POSTs JSON on a loopback URL; undefined when it is not loopback, does not answer in time, or answers otherwise. */
async function loopbackJson(url: string, timeoutMs: number, body?: unknown): Promise<unknown> {
  if (!isLoopbackUrl(url)) return undefined;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
      ...(body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

const record = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const entries = (list: unknown): Record<string, unknown>[] => (Array.isArray(record(list).data) ? (record(list).data as unknown[]).map(record) : []);
const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);
const withoutSlash = (url: string): string => url.replace(/\/+$/, '');

/** The model ids of a `/models` answer (bounded), or undefined when it is not one. */
function modelIds(answer: unknown): string[] | undefined {
  if (!Array.isArray(record(answer).data)) return undefined;
  return entries(answer)
    .map((m) => m.id)
    .filter((id): id is string => typeof id === 'string' && id !== '' && id.length <= 200)
    .slice(0, MAX_MODELS);
}

/** What `GET {baseUrl}/models` lists (a loopback URL only), or undefined when it does not answer as an OpenAI-compatible server. */
export async function listModels(baseUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string[] | undefined> {
  return modelIds(await loopbackJson(`${withoutSlash(baseUrl)}/models`, timeoutMs));
}

/** The local servers answering on `ports` of 127.0.0.1 (all probed at once), in the order of `ports`. */
export async function findLocalServers(ports: readonly number[] = localPorts(), timeoutMs = PROBE_TIMEOUT_MS): Promise<LocalServer[]> {
  const found = await Promise.all(
    ports.map(async (port): Promise<LocalServer | undefined> => {
      const baseUrl = `http://127.0.0.1:${port}/v1`;
      const answer = await loopbackJson(`${baseUrl}/models`, timeoutMs);
      const models = modelIds(answer);
      if (!models || models.length === 0) return undefined;
      const owner = entries(answer)[0]?.owned_by;
      const name = LOCAL_SERVERS.find((s) => s.ownedBy === owner)?.name ?? LOCAL_SERVERS.find((s) => s.port === port)?.name ?? 'Local server';
      return { name, baseUrl, models };
    }),
  );
  return found.filter((s): s is LocalServer => s !== undefined);
}

/** Ollama: the Modelfile's `num_ctx` when set (what it runs with), else the model's trained context length. */
async function ollamaWindow(origin: string, model: string, timeoutMs: number): Promise<number | undefined> {
  const shown = record(await loopbackJson(`${origin}/api/show`, timeoutMs, { model }));
  const numCtx = typeof shown.parameters === 'string' ? /^num_ctx\s+(\d+)\s*$/m.exec(shown.parameters)?.[1] : undefined;
  if (numCtx) return positive(Number(numCtx));
  const info = record(shown.model_info);
  const key = Object.keys(info).find((k) => k.endsWith('.context_length'));
  return key ? positive(info[key]) : undefined;
}

/** LM Studio (its REST API): the length the model is loaded with, else its maximum. */
async function lmStudioWindow(origin: string, model: string, timeoutMs: number): Promise<number | undefined> {
  const info = record(await loopbackJson(`${origin}/api/v0/models/${encodeURIComponent(model)}`, timeoutMs));
  return positive(info.loaded_context_length) ?? positive(info.max_context_length);
}

/** vLLM lists each model's `max_model_len` with the models. */
const vllmWindow = (listed: unknown, model: string): number | undefined => positive(entries(listed).find((m) => m.id === model)?.max_model_len);

/** llama.cpp's server: the context its slots run with. */
async function llamaCppWindow(origin: string, timeoutMs: number): Promise<number | undefined> {
  return positive(record(record(await loopbackJson(`${origin}/props`, timeoutMs)).default_generation_settings).n_ctx);
}

/** Answers already had, by base URL and model: a window, or null where the server answered but could not tell. */
const windows = new Map<string, number | null>();

/**
 * A local server's context window for `model`, asked of the server itself (Ollama,
 * LM Studio, vLLM, llama.cpp); undefined for a URL not on this machine (nothing is
 * sent), a server that cannot tell, or one that does not answer. Asked once per server
 * and model while it answers.
 */
export async function askContextWindow(baseUrl: string, model: string, timeoutMs = 2 * PROBE_TIMEOUT_MS): Promise<number | undefined> {
  if (!isLoopbackUrl(baseUrl)) return undefined;
  const base = withoutSlash(baseUrl);
  const key = `${base}\n${model}`;
  const known = windows.get(key);
  if (known !== undefined) return known ?? undefined;
  const origin = new URL(base).origin;
  const [listed, ollama, lmStudio, llamaCpp] = await Promise.all([
    loopbackJson(`${base}/models`, timeoutMs),
    ollamaWindow(origin, model, timeoutMs),
    lmStudioWindow(origin, model, timeoutMs),
    llamaCppWindow(origin, timeoutMs),
  ]);
  const window = ollama ?? lmStudio ?? vllmWindow(listed, model) ?? llamaCpp;
  // A server that answered is not asked again; one that did not may be up by the next turn.
  if (window !== undefined || modelIds(listed) !== undefined) windows.set(key, window ?? null);
  return window;
}
