// One HTTP/1.1 exchange over a socket webfetch opened itself, always to the checked
// address: directly, or through the person's proxy in a `CONNECT <address>:<port>`
// tunnel (for http too: a proxy serving an absolute-form request would take its
// target, not the Host header, so the name would reach the wrong site, and a proxy
// told the name resolves it again, which DNS rebinding can switch). The host's name
// still travels in SNI and the Host header, and the certificate is verified against it. Node's http.ClientRequest runs the protocol over
// that socket; the request never goes through a global agent that could pick another
// address or proxy.
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { ToolError } from '../tools/toolError';
import type { Destination } from './egress';
import { hostOf, portOf } from './webUrl';

export interface Exchange {
  readonly url: URL;
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  readonly destination: Destination;
  /** The proxy for this URL (proxy.ts), or undefined to connect directly. */
  readonly proxy?: URL;
  readonly signal: AbortSignal;
  readonly connectTimeoutMs: number;
}

/** Sends one request and resolves with the response head (the body is still to be read). */
export async function exchange(request: Exchange): Promise<http.IncomingMessage> {
  const socket = await withConnectDeadline(request, (track) => openSocket(request, track));
  const { url } = request;
  const headers: Record<string, string> = { host: url.host, ...request.headers, connection: 'close' };
  if (request.body) headers['content-length'] = String(request.body.length);
  return new Promise((resolve, reject) => {
    const req = new http.ClientRequest({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      createConnection: () => socket,
    });
    const onAbort = (): void => {
      req.destroy(request.signal.reason instanceof Error ? request.signal.reason : new Error('aborted'));
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    req.once('response', (response) => {
      response.once('close', () => request.signal.removeEventListener('abort', onAbort));
      resolve(response);
    });
    req.once('error', (error) => {
      request.signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(request.signal.aborted ? request.signal.reason : connectionError(error, url));
    });
    req.end(request.body);
  });
}

/** Every socket it creates goes to `track`, so a deadline or Stop can destroy it mid-setup. */
async function openSocket(request: Exchange, track: <S extends net.Socket>(socket: S) => S): Promise<net.Socket> {
  const { url, proxy, destination } = request;
  const name = hostOf(url);
  const servername = net.isIP(name) === 0 ? name : undefined;
  // The certificate must name the host of the URL (an IP literal's certificate, its IP): Node would otherwise check an IP URL against "localhost".
  const secure = (socket: net.Socket): Promise<net.Socket> =>
    connected(track(tls.connect({ socket, ...(servername ? { servername } : {}), ALPNProtocols: ['http/1.1'], checkServerIdentity: (_host, cert) => tls.checkServerIdentity(name, cert) })), 'secureConnect');
  if (!proxy) {
    const raw = await connected(track(net.connect({ host: destination.address, port: portOf(url), family: destination.family })), 'connect');
    return url.protocol === 'https:' ? secure(raw) : raw;
  }
  const proxyHost = hostOf(proxy);
  const proxyPort = portOf(proxy);
  const toProxy = proxy.protocol === 'https:'
    ? await connected(track(tls.connect({ host: proxyHost, port: proxyPort, ...(net.isIP(proxyHost) === 0 ? { servername: proxyHost } : {}) })), 'secureConnect')
    : await connected(track(net.connect({ host: proxyHost, port: proxyPort })), 'connect');
  await tunnel(toProxy, authorityOf(destination, portOf(url)), proxy);
  return url.protocol === 'https:' ? secure(toProxy) : toProxy;
}

/** `address:port`, an IPv6 address in brackets: the checked address, as a proxy is told it. */
function authorityOf(destination: Destination, port: number): string {
  return destination.family === 6 ? `[${destination.address}]:${port}` : `${destination.address}:${port}`;
}

/** Opens a CONNECT tunnel to the checked address through the proxy. */
function tunnel(socket: net.Socket, authority: string, proxy: URL): Promise<void> {
  const head = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`, ...Object.entries(proxyAuthorization(proxy)).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > 16_384) finish(new ToolError('unavailable', `The proxy ${proxy.host} sent an oversized answer to CONNECT.`));
        return;
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(buffered.subarray(0, end).toString('latin1'))?.[1];
      if (status !== '200') {
        const port = authority.slice(authority.lastIndexOf(':') + 1);
        const hint = port !== '443' ? ` Many proxies tunnel only to port 443; webfetch reaches every site through a tunnel to the address it checked, so an http:// or other-port URL needs a proxy that allows CONNECT to port ${port}, or the host in NO_PROXY.` : '';
        return finish(new ToolError('unavailable', `The proxy ${proxy.host} refused to connect to ${authority} (${status ? `HTTP ${status}` : 'no HTTP status'}).${hint}`, { code: 'EPROXYCONNECT', status }));
      }
      if (buffered.length > end + 4) socket.unshift(buffered.subarray(end + 4));
      finish();
    };
    const onClose = (): void => finish(new ToolError('unavailable', `The proxy ${proxy.host} closed the connection during CONNECT.`));
    const finish = (error?: Error): void => {
      socket.off('data', onData).off('close', onClose).off('error', finish);
      if (error) {
        socket.destroy();
        reject(error);
      } else resolve();
    };
    socket.on('data', onData).once('close', onClose).once('error', finish);
  });
}

function proxyAuthorization(proxy: URL): Record<string, string> {
  if (proxy.username === '' && proxy.password === '') return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

function connected<S extends net.Socket>(socket: S, event: 'connect' | 'secureConnect'): Promise<S> {
  return new Promise((resolve, reject) => {
    socket.once(event, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', (error) => {
      socket.destroy();
      reject(error);
    });
  });
}

/** The socket's setup, bounded by the connect timeout and cancelled by Stop. */
async function withConnectDeadline(request: Exchange, open: (track: <S extends net.Socket>(socket: S) => S) => Promise<net.Socket>): Promise<net.Socket> {
  const { signal, url } = request;
  const sockets: net.Socket[] = [];
  const opening = open((socket) => {
    sockets.push(socket);
    return socket;
  });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolError('timeout', `Could not connect to ${url.host} within ${Math.round(request.connectTimeoutMs / 1000)} s.`, { code: 'ECONNECTTIMEOUT' })), request.connectTimeoutMs);
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([opening, deadline]);
  } catch (error) {
    opening.catch(() => undefined);
    for (const s of sockets) s.destroy();
    throw error instanceof ToolError || signal.aborted ? error : connectionError(error, url);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** A socket or TLS failure, as the model reads it. */
export function connectionError(error: unknown, url: URL): ToolError {
  if (error instanceof ToolError) return error;
  const e = error as NodeJS.ErrnoException;
  const code = e.code ?? '';
  if (code === 'ECONNREFUSED') return new ToolError('unavailable', `${url.host} refused the connection.`, { code });
  if (code === 'ECONNRESET' || code === 'EPIPE') return new ToolError('unavailable', `${url.host} closed the connection before answering.`, { code });
  if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH') return new ToolError('unavailable', `${url.host} cannot be reached: no network route.`, { code });
  if (/CERT|SSL|TLS|ERR_TLS/i.test(code)) return new ToolError('unavailable', `The TLS connection to ${url.host} failed (${code}): ${e.message}`, { code });
  return new ToolError('unavailable', `The request to ${url.host} failed: ${e.message || code}`, { code });
}
