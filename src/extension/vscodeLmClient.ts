// VS Code's Language Model API (`vscode.lm`) behind the same small interface as the
// Anthropic and OpenAI clients (DESIGN.md §6), so a user with Copilot, or any extension
// that contributes chat models, needs no key. The API has no system role and reports no
// usage: the system prompt leads as a user message, and tokens are counted with the
// model's own tokenizer (`countTokens`), once per request.
import * as vscode from 'vscode';
import { imagesNotSent, ModelError, type HistoryItem, type ModelClient, type ModelEvent, type ModelRequest, type ToolCall } from '../core/model/modelClient';

const PROVIDER = 'vscode-lm';

/** A tool call's arguments as the API wants them: an object (a malformed call was answered as such, so `{}`). */
function inputOf(call: ToolCall): object {
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function toMessage(item: HistoryItem): vscode.LanguageModelChatMessage {
  if (item.role === 'user') return vscode.LanguageModelChatMessage.User(item.text);
  if (item.role === 'assistant') {
    const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
    if (item.text !== '') parts.push(new vscode.LanguageModelTextPart(item.text));
    for (const call of item.toolCalls) parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, inputOf(call)));
    return vscode.LanguageModelChatMessage.Assistant(parts);
  }
  return vscode.LanguageModelChatMessage.User(
    item.results.map((r) => new vscode.LanguageModelToolResultPart(r.callId, [new vscode.LanguageModelTextPart(`${r.isError ? `Error: ${r.output}` : r.output}${imagesNotSent(r)}`)])),
  );
}

/** The text the model reads, for counting its tokens in one call. */
const textOf = (request: ModelRequest): string =>
  [
    request.system,
    ...request.tools.map((t) => `${t.name}: ${t.description} ${JSON.stringify(t.inputSchema)}`),
    ...request.history.map((item) =>
      item.role === 'user' ? item.text : item.role === 'assistant' ? `${item.text}${item.toolCalls.map((c) => ` ${c.name}(${c.arguments})`).join('')}` : item.results.map((r) => r.output).join('\n'),
    ),
  ].join('\n');

/**
 * The parts of `stream` until it ends or `signal` aborts, whichever is first: a
 * provider that ignores cancellation cannot keep a stopped turn waiting.
 */
async function* untilAborted<T>(stream: AsyncIterable<T>, signal: AbortSignal): AsyncIterable<T> {
  const iterator = stream[Symbol.asyncIterator]();
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new vscode.CancellationError());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {}); // observed by the race below
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    void iterator.return?.();
  }
}

/** LanguageModelError codes: a missing consent or model is final; being blocked (rate limits, quota) may pass. */
export function toLmError(error: unknown, signal: AbortSignal): ModelError {
  if (signal.aborted || error instanceof vscode.CancellationError) return new ModelError(`${PROVIDER} request cancelled`, false);
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof vscode.LanguageModelError) {
    if (error.code === 'NoPermissions') return new ModelError(`VS Code did not allow Peon to use this language model: ${message}`, false);
    if (error.code === 'NotFound') return new ModelError(`The language model is no longer available: ${message}`, false);
    if (error.code === 'Blocked') return new ModelError(`The language model refused the request for now: ${message}`, true);
  }
  return new ModelError(`${PROVIDER} request failed: ${message}`, true);
}

export function vscodeLmClient(model: vscode.LanguageModelChat): ModelClient & { readonly contextWindow: number } {
  return {
    provider: PROVIDER,
    model: model.id,
    contextWindow: model.maxInputTokens,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      const cancel = new vscode.CancellationTokenSource();
      const onAbort = (): void => cancel.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const messages = [vscode.LanguageModelChatMessage.User(request.system), ...request.history.map(toMessage)];
        const options: vscode.LanguageModelChatRequestOptions = {
          justification: 'Peon sends your request, its conversation and its tool results to this model.',
          ...(request.tools.length > 0 ? { tools: request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })), toolMode: vscode.LanguageModelChatToolMode.Auto } : {}),
        };
        let text = '';
        const calls: ToolCall[] = [];
        let inputTokens: number;
        try {
          const [response, counted] = await Promise.all([model.sendRequest(messages, options, cancel.token), model.countTokens(textOf(request), cancel.token)]);
          inputTokens = counted;
          for await (const part of untilAborted(response.stream, signal)) {
            if (part instanceof vscode.LanguageModelTextPart) {
              text += part.value;
              yield { type: 'text', delta: part.value };
            } else if (part instanceof vscode.LanguageModelToolCallPart) {
              const call = { id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) };
              calls.push(call);
              yield { type: 'tool_call', call, complete: true };
            }
          }
        } catch (error) {
          throw toLmError(error, signal);
        }
        if (signal.aborted) throw toLmError(undefined, signal);
        const outputTokens = text === '' && calls.length === 0 ? 0 : await model.countTokens(`${text}${calls.map((c) => ` ${c.name}(${c.arguments})`).join('')}`);
        yield {
          type: 'done',
          stopReason: calls.length > 0 ? 'tool_use' : 'end_turn',
          usage: { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
          message: { role: 'assistant', text, toolCalls: calls },
        };
      } finally {
        signal.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
  };
}

/** The chat models VS Code offers (Copilot's, or any extension's); none when the API is missing. */
export async function availableLmModels(selector: vscode.LanguageModelChatSelector = {}): Promise<vscode.LanguageModelChat[]> {
  try {
    return await vscode.lm.selectChatModels(selector);
  } catch {
    return [];
  }
}
