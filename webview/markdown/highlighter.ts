// The code-block highlighter, loaded on first need: it is a second bundle
// (dist/webview/highlight.js, from highlight/highlight.ts) next to this one, added as a
// script carrying this script's nonce, so the CSP stays `script-src 'nonce-…'` and a
// conversation without code never loads it. Nothing but that file is ever requested.
import type { Language } from './languages';

/** A run of code and its class (`hl-keyword`, …; '' for plain text). */
export interface Span {
  readonly text: string;
  readonly style: string;
}

export type Highlight = (code: string, language: Language) => readonly Span[];

declare global {
  interface Window {
    /** Set by dist/webview/highlight.js when it runs. */
    peonHighlight?: Highlight;
  }
}

// The script element of this bundle, known only while it runs: where its sibling is, and its nonce.
const bundle = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
let loading: Promise<Highlight | undefined> | undefined;

/** The highlighter, loading it the first time; undefined when it cannot load (the code stays plain). */
export function loadHighlighter(): Promise<Highlight | undefined> {
  loading ??= new Promise((resolve) => {
    if (!bundle?.src) return resolve(undefined);
    const script = document.createElement('script');
    script.nonce = bundle.nonce ?? '';
    script.src = new URL('highlight.js', bundle.src).href;
    script.onload = () => resolve(window.peonHighlight);
    script.onerror = () => resolve(undefined);
    document.head.append(script);
  });
  return loading;
}

/** The highlighter if it has loaded, without waiting. */
export const loadedHighlighter = (): Highlight | undefined => window.peonHighlight;

// Rows scrolled out of the virtual window are destroyed and rebuilt when they come back:
// their blocks are coloured again from here, not parsed again.
const MAX_CACHED = 300;
const cache = new Map<string, readonly Span[]>();

/** `code` highlighted as `language`, once per distinct block. */
export function highlighted(highlight: Highlight, code: string, language: Language): readonly Span[] {
  const key = `${language}\u0000${code}`;
  let spans = cache.get(key);
  if (!spans) {
    spans = highlight(code, language);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, spans);
  }
  return spans;
}
