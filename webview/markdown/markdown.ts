// Model output as Markdown, without ever handing the model HTML: `marked` only lexes
// the text into tokens, and Markdown.svelte builds elements from those tokens itself.
// Raw HTML in the output is shown as text; images are never loaded (a Markdown image
// is a data-exfiltration channel: its URL can carry whatever the model read); a link
// becomes a link only when it is http(s) or mailto, everything else (`javascript:`,
// `command:`, `vscode:`, `data:`, relative) stays inert text.
import { Lexer, type Token, type Tokens, type TokensList } from 'marked';

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** The href to put on an `<a>`, or undefined when the link must stay inert text. */
export function safeHref(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return undefined;
  }
  return LINK_SCHEMES.has(url.protocol) ? url.href : undefined;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the character references `marked` leaves in text (`&amp;`, `&#60;`, `&#x3C;`), without a DOM. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** GitHub-flavoured block tokens of `text`; never throws (a lexer failure shows the text as it is). */
export function lexMarkdown(text: string): Token[] {
  try {
    return [...(Lexer.lex(text, { gfm: true, breaks: false }) as TokensList)];
  } catch {
    return [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] }];
  }
}

/** Heading levels the model may ask for, clamped to h3–h6 so a reply never out-shouts the panel. */
export const headingTag = (depth: number): string => `h${Math.min(6, Math.max(3, depth + 2))}`;

/**
 * Whether a code block is complete: its closing fence has arrived (an indented block has
 * none). While the model streams, an open fence runs to the end of the text; its block is
 * coloured once, when it closes, not on every batch of tokens.
 */
export function codeClosed(token: Tokens.Code): boolean {
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(token.raw)?.[1];
  if (!fence || token.codeBlockStyle === 'indented') return true;
  const lines = token.raw.replace(/\n+$/, '').split('\n');
  const last = lines.length > 1 ? (lines.at(-1) ?? '').trim() : '';
  return last.length >= fence.length && last === fence.charAt(0).repeat(last.length);
}

/** Digits in the widest number of an ordered list (1 for 1–9, 2 for 10–99, …): the room its markers need. */
export function listDigits(list: Tokens.List): number {
  const start = list.start === '' ? 1 : Number(list.start);
  return Math.min(4, String(Math.max(1, start + list.items.length - 1)).length);
}
