// The code-block highlighter: its own bundle (dist/webview/highlight.js), loaded by
// ../highlighter.ts the first time a closed block names a language it knows. It turns
// code into spans of text with a class each — never HTML — and CodeBlock.svelte renders
// them as elements. The grammars are CodeMirror's stream modes (@codemirror/legacy-modes,
// run line by line over @codemirror/streamparser's StringStream): about 50 KB
// compressed for two dozen languages, where Lezer's full grammars cost that for one or
// two (the VSIX budget, PERF.md B13).
import { StringStream, type StreamParser } from '@codemirror/streamparser';
import { cpp, csharp, java, kotlin } from '@codemirror/legacy-modes/mode/clike';
import { css, less, sCSS } from '@codemirror/legacy-modes/mode/css';
import { diff } from '@codemirror/legacy-modes/mode/diff';
import { dockerFile } from '@codemirror/legacy-modes/mode/dockerfile';
import { go } from '@codemirror/legacy-modes/mode/go';
import { javascript, json, typescript } from '@codemirror/legacy-modes/mode/javascript';
import { powerShell } from '@codemirror/legacy-modes/mode/powershell';
import { python } from '@codemirror/legacy-modes/mode/python';
import { ruby } from '@codemirror/legacy-modes/mode/ruby';
import { rust } from '@codemirror/legacy-modes/mode/rust';
import { shell } from '@codemirror/legacy-modes/mode/shell';
import { standardSQL } from '@codemirror/legacy-modes/mode/sql';
import { swift } from '@codemirror/legacy-modes/mode/swift';
import { toml } from '@codemirror/legacy-modes/mode/toml';
import { html, xml } from '@codemirror/legacy-modes/mode/xml';
import { yaml } from '@codemirror/legacy-modes/mode/yaml';
import type { Language } from '../languages';
import type { Highlight, Span } from '../highlighter';

const MODES: Record<Language, StreamParser<unknown>> = {
  javascript,
  typescript,
  json,
  python,
  css,
  scss: sCSS,
  less,
  html,
  xml,
  rust,
  go,
  java,
  cpp,
  csharp,
  kotlin,
  yaml,
  toml,
  shell,
  powershell: powerShell,
  diff,
  sql: standardSQL,
  dockerfile: dockerFile,
  ruby,
  swift,
};

/**
 * A mode's token styles (its own names, or Lezer tag names such as `variableName.standard`)
 * to the few classes CodeBlock.svelte gives a theme colour; anything else stays plain.
 */
const CLASSES: Record<string, string> = {};
const classify = (style: string, names: string): void => names.split(' ').forEach((name) => (CLASSES[name] = style));
classify('hl-keyword', 'keyword self modifier controlKeyword definitionKeyword moduleKeyword operatorKeyword tag tagName');
classify('hl-constant', 'atom bool null variableName.constant');
classify('hl-string', 'string string-2 character regexp attributeValue quote');
classify('hl-number', 'number integer float unit');
classify('hl-comment', 'comment lineComment blockComment docComment');
classify('hl-type', 'type typeName variable-3 className namespace');
classify('hl-function', 'builtin macroName variableName.standard variableName.function');
classify('hl-meta', 'meta header heading annotation documentMeta processingInstruction');
classify('hl-inserted', 'inserted');
classify('hl-deleted', 'deleted');

/** The class of a style such as "keyword", "string.special" or "error inserted". */
function classOf(style: string): string {
  for (const name of style.split(' ')) {
    const found = CLASSES[name] ?? CLASSES[name.split('.')[0] ?? ''];
    if (found) return found;
  }
  return '';
}

/** Past this, a block stays plain: colouring a huge paste is not worth a stalled panel. */
const MAX_CHARS = 100_000;

const highlight: Highlight = (code, language) => {
  const mode = MODES[language];
  if (code.length > MAX_CHARS) return [{ text: code, style: '' }];
  const spans: Span[] = [];
  // Adjacent runs of one class are joined, so a block costs few nodes.
  const add = (text: string, style: string): void => {
    const last = spans.at(-1);
    if (last && last.style === style) spans[spans.length - 1] = { text: last.text + text, style };
    else if (text) spans.push({ text, style });
  };
  const state = mode.startState?.(2);
  code.split('\n').forEach((line, i) => {
    if (i > 0) add('\n', '');
    if (line === '') mode.blankLine?.(state, 2);
    const stream = new StringStream(line, 4, 2);
    let empty = 0;
    while (!stream.eol()) {
      stream.start = stream.pos;
      let style: string | null = null;
      try {
        style = mode.token(stream, state);
      } catch {
        stream.skipToEnd(); // a mode that throws leaves the rest of the line plain
      }
      // A mode may return an empty token to change its state; never loop on one.
      if (stream.pos > stream.start) empty = 0;
      else if (++empty > 10) stream.pos++;
      add(line.slice(stream.start, stream.pos), style ? classOf(style) : '');
    }
  });
  return spans;
};

window.peonHighlight = highlight;
