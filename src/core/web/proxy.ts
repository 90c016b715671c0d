// The person's proxy settings (DESIGN.md §4: honoured): HTTPS_PROXY / HTTP_PROXY /
// NO_PROXY in the CLI, VS Code's `http.proxy` and `http.noProxy` in the panel. The
// target is checked by egress.ts either way; the proxy itself is the person's choice.
import { ToolError } from '../tools/toolError';
import { hostKey } from './hostPolicy';
import { hostOf, portOf } from './webUrl';

export interface ProxySettings {
  /** Proxy URL for https:// targets (`http://proxy:3128`, `https://user:pass@proxy`). */
  readonly https?: string;
  /** Proxy URL for http:// targets. */
  readonly http?: string;
  /** Hosts reached directly: `example.org` (and its subdomains), `.example.org`, `host:port`, `*`. */
  readonly noProxy?: readonly string[];
}

/** The proxy settings a process environment names (lowercase names win, as in curl). */
export function proxyFromEnv(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const pick = (name: string): string | undefined => (env[name.toLowerCase()] ?? env[name.toUpperCase()])?.trim() || undefined;
  const all = pick('ALL_PROXY');
  const https = pick('HTTPS_PROXY') ?? all;
  const http = pick('HTTP_PROXY') ?? all;
  if (!https && !http) return undefined;
  const noProxy = splitNoProxy(pick('NO_PROXY') ?? '');
  return { ...(https ? { https } : {}), ...(http ? { http } : {}), ...(noProxy.length > 0 ? { noProxy } : {}) };
}

export const splitNoProxy = (text: string): string[] => text.split(/[\s,]+/).filter((s) => s !== '');

/** The proxy to use for `url`, or undefined to connect directly. Throws `unavailable` for a proxy URL Peon cannot use. */
export function proxyFor(url: URL, settings: ProxySettings | undefined): URL | undefined {
  const raw = url.protocol === 'https:' ? settings?.https : settings?.http;
  if (!raw || bypasses(url, settings?.noProxy ?? [])) return undefined;
  let proxy: URL;
  try {
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    throw new ToolError('unavailable', `The proxy setting ${JSON.stringify(raw)} is not a URL; fix it (HTTPS_PROXY, or http.proxy in VS Code).`);
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new ToolError('unavailable', `webfetch supports http:// and https:// proxies, not ${proxy.protocol} (${proxy.host}).`);
  }
  return proxy;
}

/** NO_PROXY as curl reads it: `*` is everything; a name covers its subdomains; `host:port` only that port. */
function bypasses(url: URL, noProxy: readonly string[]): boolean {
  const host = hostKey(hostOf(url));
  const port = String(portOf(url));
  return noProxy.some((raw) => {
    const entry = raw.trim();
    if (entry === '*') return true;
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    const name = hostKey((withPort ? withPort[1]! : entry).replace(/^\*?\./, ''));
    if (withPort && withPort[2] !== port) return false;
    return host === name || host.endsWith(`.${name}`);
  });
}
