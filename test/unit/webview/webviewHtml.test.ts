import { describe, expect, test } from 'vitest';
import { contentSecurityPolicy, renderWebviewHtml } from '../../../src/extension/webviewHtml';

const assets = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'bm9uY2Utb25l',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/main.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/main.css',
};

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

describe('the chat view CSP (DESIGN.md §7)', () => {
  const csp = directives(contentSecurityPolicy(assets));

  test('nothing is allowed by default', () => {
    expect(csp.get('default-src')).toEqual(["'none'"]);
  });

  test('scripts run only with the nonce: no inline, no eval, no origin', () => {
    expect(csp.get('script-src')).toEqual([`'nonce-${assets.nonce}'`]);
  });

  test('images come only from the extension or data: URIs, never from the network', () => {
    expect(csp.get('img-src')).toEqual([assets.cspSource, 'data:']);
  });

  test('styles and fonts come only from the extension', () => {
    expect(csp.get('style-src')).toEqual([assets.cspSource]);
    expect(csp.get('font-src')).toEqual([assets.cspSource]);
  });

  test('no directive allows unsafe-inline, unsafe-eval, http:, https: or *', () => {
    for (const [name, values] of csp) {
      for (const value of values) expect(value, name).not.toMatch(/^('unsafe-|https?:$|\*$)/);
    }
  });
});

describe('the HTML shell', () => {
  const html = renderWebviewHtml(assets);

  test('carries the CSP as a meta tag and the nonce on its only script', () => {
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${assets.nonce}';`);
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="${assets.nonce}" src="${assets.scriptUri}"></script>`);
  });

  test('loads only the built script and stylesheet', () => {
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toEqual([assets.styleUri, assets.scriptUri]);
  });

  test('escapes what it interpolates into attributes', () => {
    const evil = renderWebviewHtml({ ...assets, scriptUri: 'x" onload="alert(1)', nonce: 'a"b' });
    expect(evil).not.toContain('onload="alert(1)"');
    expect(evil).toContain('src="x&quot; onload=&quot;alert(1)"');
  });
});
