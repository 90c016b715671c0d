// The webview's side of the protocol in src/shared/messages.ts: typed sends, and
// every received message validated before anything renders it.
import { parseHostMessage, type HostMessage, type WebviewMessage } from '../src/shared/messages';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post(message: WebviewMessage): void {
  api.postMessage(message);
}

export function onHostMessage(handler: (message: HostMessage) => void): () => void {
  const listener = (event: MessageEvent<unknown>): void => {
    const parsed = parseHostMessage(event.data);
    if (parsed.ok) handler(parsed.message);
    else console.warn(`Peon: ignored a message from the extension: ${parsed.error}`);
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}
