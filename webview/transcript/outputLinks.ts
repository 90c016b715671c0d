// `path:line` in a tool's output (grep's `src/a.js:12:…`, a compiler's `a.ts:3:5`, a test
// runner's stack) and, for tools that print one path a line (glob), whole-line paths: the
// pieces a card shows as links. The host decides what a name means and opens only a
// workspace file (the `openFile` message); this only finds names worth offering.

export type OutputPiece = { readonly text: string; readonly path?: undefined } | { readonly text: string; readonly path: string; readonly line?: number };

/** A relative or absolute file name with an extension, then `:line` (and maybe `:column`). */
const PATH_LINE = /(?<![\w./@~-])((?:\/|\.{1,2}\/)?(?:[\w.@~-]+\/)*[\w@~-][\w.@~-]*\.[A-Za-z][A-Za-z0-9]{0,11}):(\d{1,9})(?::\d{1,6})?/g;
/** A whole line that is one file name (glob's output). */
const PATH_ONLY = /^(?:\/|\.{1,2}\/)?(?:[\w.@~-]+\/)*[\w@~-][\w.@~-]*\.[A-Za-z][A-Za-z0-9]{0,11}$/;

export function outputPieces(line: string, wholeLinePaths = false): OutputPiece[] {
  if (wholeLinePaths && PATH_ONLY.test(line)) return [{ text: line, path: line }];
  const pieces: OutputPiece[] = [];
  let from = 0;
  for (const match of line.matchAll(PATH_LINE)) {
    const at = match.index;
    if (at > from) pieces.push({ text: line.slice(from, at) });
    pieces.push({ text: match[0], path: match[1]!, line: Number(match[2]) });
    from = at + match[0].length;
  }
  if (from < line.length || pieces.length === 0) pieces.push({ text: line.slice(from) });
  return pieces;
}
