// The words of a search, found again in a snippet so the history view can mark them
// (as text pieces: nothing of the snippet is ever read as markup).

export interface Piece {
  readonly text: string;
  readonly hit: boolean;
}

/** `text` in pieces, the pieces that are one of `query`'s words (any case) marked as hits. */
export function highlight(text: string, query: string): Piece[] {
  const words = [...new Set(query.toLowerCase().split(/\s+/).filter((w) => w !== ''))].sort((a, b) => b.length - a.length);
  if (words.length === 0) return [{ text, hit: false }];
  const lower = text.toLowerCase();
  const pieces: Piece[] = [];
  let from = 0;
  let at = 0;
  while (at < text.length) {
    const word = words.find((w) => lower.startsWith(w, at));
    if (!word) {
      at++;
      continue;
    }
    if (at > from) pieces.push({ text: text.slice(from, at), hit: false });
    pieces.push({ text: text.slice(at, at + word.length), hit: true });
    at += word.length;
    from = at;
  }
  if (from < text.length) pieces.push({ text: text.slice(from), hit: false });
  return pieces;
}
