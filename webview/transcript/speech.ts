// What the transcript says to a screen reader (DESIGN.md §7, accessibility): streamed
// text in whole sentences, a few seconds' worth at a time, never token by token, and
// without the Markdown marks a voice would read out.

/** Markdown as it should sound: no marks, link texts without their URLs, one line. */
export function speakable(markdown: string): string {
  return markdown
    .replace(/^\s*(```|~~~).*$/gm, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+(\[[ xX]\]\s+)?)/gm, '')
    .replace(/^\s*\|?[\s:|-]+\|[\s:|-]*$/gm, ' ')
    .replace(/(\*\*|__|[*_`|])/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The end of the last sentence or line in `text` (0: none yet). */
function lastBoundary(text: string): number {
  let end = 0;
  for (const match of text.matchAll(/[.!?…:](?=\s)|\n/g)) end = match.index + match[0].length;
  return end;
}

/** How much of the streaming message was said: the rest is said at its next sentence end, or when it ends. */
export class StreamSpeech {
  private id: string | undefined;
  private said = 0;

  /** Counts `text` as said already (a transcript opened with it). */
  skip(id: string, text: string): void {
    this.id = id;
    this.said = text.length;
  }

  /** The whole sentences of message `id` not said yet; all of the rest once it `ended`. */
  take(id: string, text: string, ended: boolean): string {
    if (id !== this.id) this.skip(id, '');
    const pending = text.slice(this.said);
    // A long stretch without a sentence end (a code block, a table) is said as it is.
    const end = ended || pending.length > 600 ? pending.length : lastBoundary(pending);
    this.said += end;
    return pending.slice(0, end);
  }
}
