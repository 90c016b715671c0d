// Characters a person cannot see on a card but a shell or a program will act on:
// controls, bidi overrides and isolates (Trojan Source), zero-width characters, tag
// characters. A card shows each as ⟨U+XXXX⟩ (SECURITY.md: shown in full, made visible).
const HIDDEN =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- these characters are exactly what it looks for
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]/g;

export type TextPiece = { readonly text: string; readonly hidden: boolean };

/** `text` cut into visible runs and hidden characters (each named by its code point). */
export function revealHidden(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(HIDDEN)) {
    const at = match.index;
    if (at > last) pieces.push({ text: text.slice(last, at), hidden: false });
    const code = match[0].codePointAt(0) ?? 0;
    pieces.push({ text: `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`, hidden: true });
    last = at + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), hidden: false });
  return pieces;
}

export const hiddenCount = (pieces: readonly TextPiece[]): number => pieces.filter((p) => p.hidden).length;
