// File names in model output that open the file: `src/a.ts:42`, `index.js`, src/a.ts#L42.
// The webview only guesses that text names a file; the host resolves the name against the
// workspace and opens only a workspace file (src/extension/workspaceFile.ts), so a guess
// that is not one does nothing.

export interface FileRef {
  /** The name as written, without its line. */
  readonly path: string;
  readonly line?: number;
  /** The text it was found in (`src/a.ts:42:7`). */
  readonly text: string;
}

// A name with an extension (`.ts`, `.md`; a letter first, so `1.5` is none), as a path
// (`../a/b.ts`, `.github/ci.yml`) or bare, then an optional `:line`, `:line:column`, `:line-line` or `#Lline`.
const NAME = String.raw`(?:(?:\.{1,2}/)+|/)?(?:\.?[\w@+-][\w.@+-]*/)*\.?[\w@+-][\w.@+-]*\.[A-Za-z][A-Za-z0-9]{0,9}`;
const LINE = String.raw`(?::(\d{1,9})(?::\d{1,9}|[-–]\d{1,9})?|#L(\d{1,9})(?:-L?\d{1,9})?)?`;
const WHOLE = new RegExp(`^(${NAME})${LINE}$`);
// In prose a name needs a folder or a line to count (`Node.js` or `e.g.` is no file);
// not inside a URL or a longer word.
const IN_TEXT = new RegExp(`(?<![\\w./\\\\:@#-])(${NAME})${LINE}(?![\\w/\\\\-])`, 'g');

function refOf(text: string, path: string, line: string | undefined, anchor: string | undefined): FileRef {
  const n = Number(line ?? anchor);
  return n >= 1 ? { path, line: n, text } : { path, text };
}

/** `text` when all of it names a file (an inline code span, a link's target), else undefined. */
export function wholeFileRef(text: string): FileRef | undefined {
  const m = WHOLE.exec(text.trim());
  return m?.[1] ? refOf(text.trim(), m[1], m[2], m[3]) : undefined;
}

/** `text` split into plain pieces and the file names in it that have a folder or a line; undefined when it names none. */
export function fileRefsIn(text: string): (string | FileRef)[] | undefined {
  if (!text.includes('.')) return undefined;
  const pieces: (string | FileRef)[] = [];
  let at = 0;
  for (const m of text.matchAll(IN_TEXT)) {
    const [whole, path = '', line, anchor] = m;
    if (!path.includes('/') && line === undefined && anchor === undefined) continue;
    if (m.index > at) pieces.push(text.slice(at, m.index));
    pieces.push(refOf(whole, path, line, anchor));
    at = m.index + whole.length;
  }
  if (at === 0) return undefined;
  if (at < text.length) pieces.push(text.slice(at));
  return pieces;
}
