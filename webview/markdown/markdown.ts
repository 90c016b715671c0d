// Model output as Markdown, without ever handing the model HTML: `marked` only lexes
// the text into tokens, and Markdown.svelte builds elements from those tokens itself.
// Raw HTML in the output is shown as text; images are never loaded (a Markdown image
// is a data-exfiltration channel: its URL can carry whatever the model read); a link
// becomes a link only when it is http(s) or mailto, everything else (`javascript:`,
// `command:`, `vscode:`, `data:`, relative) stays inert text. A file name becomes a
// `file` token (fileRefs.ts), which the panel shows as a button that asks the host.
import { Lexer, type Token, type Tokens, type TokensList } from 'marked';
import { fileRefsIn, wholeFileRef, type FileRef } from './fileRefs';

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

/** GitHub-flavoured block tokens of `text`, file names marked; never throws (a lexer failure shows the text as it is). */
export function lexMarkdown(text: string): Token[] {
  try {
    return withFileTokens([...(Lexer.lex(text, { gfm: true, breaks: false }) as TokensList)]);
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
  const end = token.raw.trimEnd();
  const lastLine = end.lastIndexOf('\n');
  const last = lastLine < 0 ? '' : end.slice(lastLine + 1).trim();
  return last.length >= fence.length && last === fence.charAt(0).repeat(last.length);
}

/** Digits in the widest number of an ordered list (1 for 1–9, 2 for 10–99, …): the room its markers need. */
export function listDigits(list: Tokens.List): number {
  const start = list.start === '' ? 1 : Number(list.start);
  return Math.min(4, String(Math.max(1, start + list.items.length - 1)).length);
}

/** A file named in the text: shown as its `tokens` (the name, a code span, a link's text), opened by the host. */
export interface FileToken {
  readonly type: 'file';
  readonly raw: string;
  readonly file: FileRef;
  readonly tokens: Token[];
}

/**
 * `tokens` with the file names in them as `file` tokens: a code span or a relative link
 * that is all a file name, and names with a folder or a line in text. Done once per lex,
 * so the template has one more token type, not a search per text node per render.
 */
function withFileTokens(tokens: Token[]): Token[] {
  return tokens.flatMap((token): Token[] => {
    if (token.type === 'text' && !('tokens' in token && token.tokens)) {
      // Split as lexed (entities are decoded where the text is shown); a name holds none.
      const pieces = fileRefsIn(token.text);
      if (!pieces) return [token];
      return pieces.map((piece) => (typeof piece === 'string' ? { type: 'text', raw: piece, text: piece } : fileToken(piece, [{ type: 'text', raw: piece.text, text: piece.text }])));
    }
    if (token.type === 'codespan') {
      const file = wholeFileRef(decodeEntities(token.text));
      return [file ? fileToken(file, [token]) : token];
    }
    if (token.type === 'link') {
      const file = safeHref(token.href) ? undefined : wholeFileRef(token.href);
      return [file ? fileToken(file, token.tokens ?? []) : token]; // a link's text is never split
    }
    if (token.type === 'list') for (const item of (token as Tokens.List).items) item.tokens = withFileTokens(item.tokens);
    else if (token.type === 'table') {
      const table = token as Tokens.Table;
      for (const cell of [...table.header, ...table.rows.flat()]) cell.tokens = withFileTokens(cell.tokens);
    } else if ('tokens' in token && Array.isArray(token.tokens)) token.tokens = withFileTokens(token.tokens);
    return [token];
  });
}

const fileToken = (file: FileRef, tokens: Token[]): Token => ({ type: 'file', raw: file.text, file, tokens }) satisfies FileToken;
