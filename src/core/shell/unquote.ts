// Quote removal as bash does it, for checks that must ignore what is quoted.

/**
 * `text` with every quoted or escaped character replaced by `_`, as bash reads quotes: a
 * backslash escapes outside quotes and (some characters) inside double quotes, but is
 * literal inside single quotes.
 */
export function unquotedText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    let end = i + 1;
    if (c === '\\') end = i + 2;
    else if (c === "'") end = text.indexOf("'", i + 1) + 1 || text.length;
    else if (c === '"') {
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      end = Math.min(end + 1, text.length);
    } else {
      out += c;
      i++;
      continue;
    }
    out += '_'.repeat(Math.min(end, text.length) - i);
    i = end;
  }
  return out;
}
