// HTML → Markdown for webfetch (DESIGN.md §4): turndown with the GFM plugin, after the
// page is cleaned in its DOM — script, style and other noise removed, links and images
// made absolute against the page's URL, a table's first row made its header when it
// has none, images without a description dropped — and code blocks fenced with their
// language.
import { createDocument, type DominoElement } from '@mixmark-io/domino';
import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';

/** Elements whose content is never text a reader sees. */
const NOISE = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'svg', 'math', 'canvas', 'audio', 'video', 'source', 'track', 'map', 'link', 'meta', 'base', 'button', 'input', 'select', 'option', 'textarea', 'dialog']);

export interface PageMarkdown {
  readonly title: string;
  readonly markdown: string;
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_', hr: '---' });
  service.use(gfm);
  service.addRule('fencedCode', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const element = node as unknown as DominoElement;
      const code = (element.textContent ?? '').replace(/\n$/, '');
      const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
      const fence = '`'.repeat(longest + 1);
      return `\n\n${fence}${languageOf(element)}\n${code}\n${fence}\n\n`;
    },
  });
  service.addRule('describedImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = (node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      const src = node.getAttribute('src') ?? '';
      return alt !== '' && /^https?:/i.test(src) ? `![${alt.replace(/[[\]]/g, '\\$&')}](${src.replace(/[()\s]/g, encodeURIComponent)})` : '';
    },
  });
  service.addRule('textLink', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const text = content.trim();
      const href = node.getAttribute('href') ?? '';
      if (text === '') return '';
      if (!/^(https?:|mailto:|#)/i.test(href)) return text;
      return `[${text}](${href.replace(/[()\s]/g, encodeURIComponent)})`;
    },
  });
  return service;
}

/** The language of a code block, from the classes and attributes highlighters leave: `language-ts`, `lang-py`, `highlight-source-go`, `data-lang`. */
function languageOf(pre: DominoElement): string {
  const code = pre.querySelector('code');
  const holders = [code, pre, pre.parentElement].filter((e): e is DominoElement => e !== null && e !== undefined);
  for (const element of holders) {
    const attr = element.getAttribute('data-lang') ?? element.getAttribute('data-language');
    if (attr && /^[\w+#.-]{1,30}$/.test(attr)) return attr.toLowerCase();
    const match = /(?:^|\s)(?:language|lang|highlight-source|brush:?)-?([\w+#.-]{1,30})(?:\s|$)/i.exec(element.getAttribute('class') ?? '');
    if (match) return match[1]!.toLowerCase();
  }
  return '';
}

/** Converts a page to Markdown; `base` is the URL it came from (relative links resolve against it). */
export function htmlToMarkdown(html: string, base: URL): PageMarkdown {
  const document = createDocument(html, true);
  const title = (document.title ?? '').replace(/\s+/g, ' ').trim();
  const root = document.body ?? document.documentElement;
  if (!root) return { title, markdown: '' };
  clean(root, base);
  // The document is this call's own and thrown away after: turndown's defensive deep copy of its input is not needed.
  Object.defineProperty(root, 'cloneNode', { value: () => root });
  return { title, markdown: tidy(turndown().turndown(root as unknown as TurndownService.Node)) };
}

/** One walk over the tree: noise removed, links and images made absolute, header-less tables given a header. */
function clean(root: DominoElement, base: URL): void {
  const stack: DominoElement[] = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    for (let child = element.firstElementChild; child; ) {
      const next = child.nextElementSibling;
      const tag = child.localName;
      if (NOISE.has(tag)) child.remove();
      else {
        if (tag === 'a') absolutise(child, 'href', base);
        else if (tag === 'img') absolutise(child, 'src', base);
        else if (tag === 'table') promoteHeader(child);
        stack.push(child);
      }
      child = next;
    }
  }
}

function absolutise(element: DominoElement, attribute: 'href' | 'src', base: URL): void {
  const value = element.getAttribute(attribute)?.trim();
  // Already absolute (most links), or a fragment: nothing to resolve.
  if (value === undefined || value === '' || value.startsWith('#') || /^https?:\/\/[^\s\\]*$/i.test(value)) return;
  try {
    element.setAttribute(attribute, new URL(value, base).href);
  } catch {
    element.removeAttribute(attribute);
  }
}

/** A table without header cells gets its first row as the header, so GFM can render it as a table. */
function promoteHeader(table: DominoElement): void {
  if (table.querySelector('th')) return;
  const first = table.querySelector('tr');
  if (!first) return;
  const document = first.ownerDocument;
  for (const cell of Array.from(first.querySelectorAll('td'))) {
    const header = document.createElement('th');
    while (cell.firstChild) header.appendChild(cell.firstChild);
    cell.replaceWith(header);
  }
}

/** Outside code blocks: trailing spaces cut, inner runs of spaces and of blank lines made one. Code stays as it was. */
function tidy(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^(`{3,})/.exec(line)?.[1];
    if (fence) {
      out.push(line);
      if (marker && line.trim() === fence) fence = undefined;
      continue;
    }
    if (marker) fence = marker;
    // Runs of spaces inside a line (left where dropped elements were) become one; indentation stays.
    const text = line.trimEnd().replace(/(\S) {2,}(?=\S)/g, '$1 ');
    if (text === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(text);
  }
  return out.join('\n').trim();
}
