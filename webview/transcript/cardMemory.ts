// What the person opened on a card, kept while its row leaves the DOM and comes back
// (the transcript is virtualised): by the entry itself, so a new chat starts afresh.
export interface CardMemory {
  /** Opened or closed by the person; undefined: as the card opens by default. */
  open?: boolean;
}

const memory = new WeakMap<object, CardMemory>();

export function cardMemory(entry: object): CardMemory {
  let kept = memory.get(entry);
  if (!kept) memory.set(entry, (kept = {}));
  return kept;
}
