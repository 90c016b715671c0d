// The composer's `@` picker (DESIGN.md §7: `@` picks files), as pure functions: where an
// `@path` being typed starts and what it asks for, and the text once an entry is picked.
// Like `/` for skills (skillPicker.ts), an `@` counts at the start or after whitespace, so
// an e-mail address offers nothing. The search itself is the host's (it knows the files).

export interface AtToken {
  /** Where the `@` is. */
  readonly start: number;
  /** Where the path being typed ends (the caret, or past the characters after it). */
  readonly end: number;
  /** What was typed after the `@`, up to the caret. */
  readonly query: string;
}

/** The `@path` the caret is in, or undefined when it is in none. */
export function atToken(text: string, caret: number): AtToken | undefined {
  let start = caret;
  while (start > 0 && !/\s/.test(text[start - 1]!) && text[start - 1] !== '@') start--;
  if (start === 0 || text[start - 1] !== '@') return undefined;
  const at = start - 1;
  if (at > 0 && !/\s/.test(text[at - 1]!)) return undefined;
  let end = caret;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  const query = text.slice(start, caret);
  return query.length > 200 ? undefined : { start: at, end, query };
}

/** The text with the token replaced by `@path ` (the mention stays readable in the message) and where the caret goes. */
export function pickPath(text: string, token: AtToken, path: string): { text: string; caret: number } {
  const rest = text.slice(token.end);
  const inserted = `@${path}${rest.startsWith(' ') ? '' : ' '}`;
  const caret = token.start + inserted.length + (rest.startsWith(' ') ? 1 : 0);
  return { text: text.slice(0, token.start) + inserted + rest, caret };
}

/** Where a path's name starts (after its last '/', a folder's trailing one aside): the picker shows the name first. */
export function nameAndFolder(path: string): { name: string; folder: string } {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const cut = trimmed.lastIndexOf('/');
  return { name: trimmed.slice(cut + 1) + (path.endsWith('/') ? '/' : ''), folder: cut === -1 ? '' : trimmed.slice(0, cut) };
}
