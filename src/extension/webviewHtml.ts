// The chat view's HTML shell. Pure (no `vscode` import) so the CSP is unit-tested.

export interface WebviewAssets {
  /** `webview.cspSource`: the origin the webview loads extension resources from. */
  readonly cspSource: string;
  /** A fresh random value per render; only scripts carrying it run. */
  readonly nonce: string;
  readonly scriptUri: string;
  readonly styleUri: string;
}

/**
 * The Content-Security-Policy of DESIGN.md §7: nothing by default, scripts only by
 * nonce (the bundle, and the code-block highlighter it adds with the same nonce on
 * first need: webview/markdown/highlighter.ts), styles and fonts only from the
 * extension, images from the extension or `data:` — never remote, since a markdown
 * image is a way to leak data.
 */
export function contentSecurityPolicy({ cspSource, nonce }: Pick<WebviewAssets, 'cspSource' | 'nonce'>): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

const escapeAttr = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderWebviewHtml(assets: WebviewAssets): string {
  const csp = escapeAttr(contentSecurityPolicy(assets));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(assets.styleUri)}">
<title>Peon</title>
</head>
<body>
<div id="app"></div>
<script nonce="${escapeAttr(assets.nonce)}" src="${escapeAttr(assets.scriptUri)}"></script>
</body>
</html>`;
}
