// Real HTTP servers on loopback for the web tools' tests: each records every connection
// it accepts and every request it reads, so a test can assert that a refused target was
// never reached. A small forward proxy (CONNECT and absolute-form) records the same.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';

export interface Logged {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface TestServer {
  readonly port: number;
  /** `127.0.0.1:port`, as peon.web.allowedHosts names it. */
  readonly hostPort: string;
  readonly origin: string;
  readonly connections: net.Socket[];
  readonly requests: Logged[];
  /** Resolves when a socket the server accepted has closed (the client gave up or finished). */
  closed(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const servers: (http.Server | net.Server)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if ('closeAllConnections' in server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function track(server: http.Server, host: string, secure: boolean, requests: Logged[] = []): Promise<TestServer> {
  const connections: net.Socket[] = [];
  const waiters: (() => void)[] = [];
  server.on(secure ? 'secureConnection' : 'connection', (socket: net.Socket) => {
    connections.push(socket);
    socket.once('close', () => waiters.splice(0).forEach((w) => w()));
  });
  servers.push(server);
  return new Promise((resolve) => {
    server.listen(0, host, () => {
      const port = (server.address() as net.AddressInfo).port;
      const hostPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      resolve({
        port,
        hostPort,
        origin: `${secure ? 'https' : 'http'}://${hostPort}`,
        connections,
        requests,
        closed: () => new Promise<void>((done) => (connections.some((c) => c.destroyed) ? done() : waiters.push(done))),
      });
    });
  });
}

/** A server whose routes map a path to a handler; the request body is read first. */
export function webServer(routes: Record<string, Handler>, host = '127.0.0.1'): Promise<TestServer> {
  const requests: Logged[] = [];
  const server = http.createServer((req, res) => serve(routes, requests, req, res));
  return track(server, host, false, requests);
}

function serve(routes: Record<string, Handler>, requests: Logged[], req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
      return;
    }
    route(req, res, Buffer.concat(chunks).toString('utf8'));
  });
}

export interface Certificate {
  readonly key: string;
  readonly cert: string;
  /** The certificate as a PEM file, for NODE_EXTRA_CA_CERTS (a self-signed certificate is its own CA). */
  readonly certFile: string;
}

const certificates = new Map<string, Certificate>();
const certificateDirs: string[] = [];
afterAll(() => {
  for (const dir of certificateDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
/** A self-signed certificate for `subjectAltName` (made with openssl once per run): untrusted unless a client is told to trust it. */
export function selfSigned(subjectAltName = 'IP:127.0.0.1'): Certificate {
  const known = certificates.get(subjectAltName);
  if (known) return known;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-tls-'));
  certificateDirs.push(dir);
  const key = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', certFile, '-days', '2', '-subj', '/CN=peon-test', '-addext', `subjectAltName=${subjectAltName}`], { stdio: 'ignore' });
  const made = { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(certFile, 'utf8'), certFile };
  certificates.set(subjectAltName, made);
  return made;
}

export function tlsServer(routes: Record<string, Handler>, certificate: Certificate = selfSigned()): Promise<TestServer> {
  const requests: Logged[] = [];
  const server = https.createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => serve(routes, requests, req, res));
  return track(server, '127.0.0.1', true, requests);
}

export interface TestProxy extends TestServer {
  /** `CONNECT host:port` lines and absolute-form request targets, in order. */
  readonly seen: string[];
}

/** A forward proxy on loopback: absolute-form http requests and CONNECT tunnels. */
export async function forwardProxy(): Promise<TestProxy> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = http.request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  const base = await track(server, '127.0.0.1', false);
  return { ...base, seen };
}
