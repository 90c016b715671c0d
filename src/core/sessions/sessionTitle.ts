// A saved conversation's title, taken from what the person first asked: its first
// sentence, whole (a very short one takes the next along), never cut mid-word.

/** The longest title kept; a longer first sentence is cut at a word, with "…". */
export const TITLE_CHARS = 100;

/** A title for a chat whose first message is `text` ("New chat" when there is nothing to go on). */
export function titleFrom(text: string): string {
  // The first paragraph; a line break inside it ends a sentence only before a capital, a digit or a list mark.
  const paragraph = text.trim().split(/\n\s*\n/)[0] ?? '';
  const flat = paragraph
    .replace(/([^\s])[^\S\n]*\n\s*(?=[^a-z])/g, (_, last: string) => (/[.!?…:;,]/.test(last) ? `${last} ` : `${last}. `))
    .replace(/\s+/g, ' ')
    .trim();
  // A sentence ends at . ! ? or … before a space (not inside "index.js" or "v1.2").
  const ends = [...flat.matchAll(/[.!?…]+(?= |$)/g)].map((m) => m.index + m[0].length);
  let title = flat.slice(0, ends[0] ?? flat.length);
  // "Hi." or "Quick question." says little: the next sentence joins it, if there is room.
  for (let i = 1; title.length < 20 && i <= ends.length; i++) {
    const next = flat.slice(0, ends[i] ?? flat.length);
    if (next.length > TITLE_CHARS) break;
    title = next;
  }
  return cleanTitle(title.replace(/\.$/, '')) || 'New chat';
}

/** A title as kept: one line, at most TITLE_CHARS, cut at a word boundary. */
export function cleanTitle(raw: string): string {
  const title = raw.replace(/\s+/g, ' ').trim();
  if (title.length <= TITLE_CHARS) return title;
  const cut = title.slice(0, TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, TITLE_CHARS - 1)).replace(/[\s,;:.-]+$/, '')}…`;
}
