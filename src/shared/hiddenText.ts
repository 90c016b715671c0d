// Characters a person cannot see but a shell, a program or a model will act on:
// controls, bidi overrides and isolates (Trojan Source), zero-width characters, tag
// characters (U+E0000–E007F, which spell ASCII invisibly), private-use characters. A
// card shows each as ⟨U+XXXX⟩ (SECURITY.md: shown in full, made visible); a skill's
// text is flagged with what it hides, tag text decoded so a person can read it.
const HIDDEN =
  /(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Default_Ignorable_Code_Point}\u115F\u1160\u3164\uFFA0\uFFF9-\uFFFB]/gu;

/** Printable ASCII and line breaks hide nothing: the usual text is cleared by one cheap scan. */
const NOT_PLAIN = /[^\x20-\x7e\t\n\r]/;
/** The set, asked once: a test is far cheaper than walking matches. */
const ANY_HIDDEN = new RegExp(HIDDEN.source, 'u');
const hides = (text: string): boolean => NOT_PLAIN.test(text) && ANY_HIDDEN.test(text);

export type TextPiece = { readonly text: string; readonly hidden: boolean };

const codeName = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * `text` cut into visible runs and hidden characters (each named by its code point):
 * controls but tab and line breaks, format characters (bidi, zero-width, tags), private
 * use, and every default-ignorable code point (variation selectors, U+E0100–E01EF too).
 */
export function revealHidden(text: string): TextPiece[] {
  if (!hides(text)) return text === '' ? [] : [{ text, hidden: false }];
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(HIDDEN)) {
    const at = match.index;
    if (at > last) pieces.push({ text: text.slice(last, at), hidden: false });
    pieces.push({ text: `⟨${codeName(match[0].codePointAt(0) ?? 0)}⟩`, hidden: true });
    last = at + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), hidden: false });
  return pieces;
}

export const hiddenCount = (pieces: readonly TextPiece[]): number => pieces.filter((p) => p.hidden).length;

/** `text` with every hidden character written as ⟨U+XXXX⟩: what a model or a log is shown of untrusted text. */
export const visibleText = (text: string): string => revealHidden(text).map((p) => p.text).join('');

type HiddenKind = 'bidi control' | 'zero-width or invisible character' | 'tag character' | 'private-use character' | 'variation selector' | 'control character';

function kindOf(code: number): HiddenKind {
  if (code >= 0xe0000 && code <= 0xe007f) return 'tag character';
  if ((code >= 0xe000 && code <= 0xf8ff) || code >= 0xf0000) return 'private-use character';
  if ((code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef) || (code >= 0x180b && code <= 0x180f)) return 'variation selector';
  if (code === 0x061c || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0x200e || code === 0x200f) return 'bidi control';
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'control character';
  return 'zero-width or invisible character';
}

export interface HiddenFindings {
  /** How many hidden characters, by kind ("3 tag characters"). */
  readonly counts: Readonly<Partial<Record<HiddenKind, number>>>;
  readonly total: number;
  /** The ASCII the tag characters spell, run by run ("ignore previous instructions"). */
  readonly tagText: readonly string[];
}

/** What `text` hides: each kind counted, and what its tag characters spell. */
export function findHidden(text: string): HiddenFindings {
  if (!hides(text)) return { counts: {}, total: 0, tagText: [] };
  const counts: Partial<Record<HiddenKind, number>> = {};
  const tagText: string[] = [];
  let total = 0;
  let run = '';
  let runEnd = -1;
  for (const match of text.matchAll(HIDDEN)) {
    const code = match[0].codePointAt(0) ?? 0;
    const kind = kindOf(code);
    counts[kind] = (counts[kind] ?? 0) + 1;
    total++;
    if (kind === 'tag character') {
      if (match.index !== runEnd && run) {
        tagText.push(run);
        run = '';
      }
      // U+E0020–E007E mirror printable ASCII; U+E0001 and U+E007F mark a run's start and end.
      if (code >= 0xe0020 && code <= 0xe007e) run += String.fromCharCode(code - 0xe0000);
      runEnd = match.index + match[0].length;
    }
  }
  if (run) tagText.push(run);
  return { counts, total, tagText };
}

/** The findings as sentences for a card and for the model ("2 bidi controls", "tag characters spelling \"…\""); none: empty. */
export function describeHidden(findings: HiddenFindings): string[] {
  const lines = Object.entries(findings.counts).map(([kind, count]) => `${count} ${kind}${count === 1 ? '' : 's'}`);
  // What they spell is shown, never able to act as markup where it is shown (`<` and `>` escaped).
  for (const spelled of findings.tagText) lines.push(`tag characters spelling ${JSON.stringify(spelled).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')}`);
  return lines;
}
