// Where the keyboard focus goes in the panel (#7 of the UX walkthrough): the composer
// after an answer and on Focus Chat or New Chat, a card when it arrives or when its
// notification is followed. Found by the DOM, so no component has to hand out its parts.

export function focusComposer(): void {
  document.querySelector<HTMLTextAreaElement>('.composer textarea')?.focus();
}

/** The host asked for the composer (Focus Chat, New Chat) while the panel did not have the focus yet. */
let composerWanted = false;

/**
 * The host's "cursor in the composer": now when the panel has the focus; otherwise when it
 * gets it (VS Code focuses the view just before it asks), so a request that arrives late
 * never takes the focus back from what the person opened meanwhile (the palette, an editor).
 */
export function requestComposer(): void {
  if (document.hasFocus()) focusComposer();
  else composerWanted = true;
}

/** Focuses the pending card `id` (or the first one); false when there is none. */
export function focusApproval(id?: string): boolean {
  const card = document.querySelector<HTMLElement>(id === undefined ? '[data-approval]' : `[data-approval="${CSS.escape(id)}"]`);
  card?.focus();
  return card !== null;
}

/** Whether the person is typing: the focus is in a field that holds text (a card arriving must not take it). */
export function typing(): boolean {
  const active = document.activeElement;
  return (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && active.value.trim() !== '';
}

/**
 * The panel focused from outside with nothing inside focused (VS Code's "Focus on Chat
 * View", the activity-bar icon) puts the cursor in the composer; a click inside is left
 * to land where it lands. Returns the cleanup.
 */
export function composerOnEntry(): () => void {
  let pointer = false;
  const down = (): void => {
    pointer = true;
    composerWanted = false; // a click inside puts the cursor where it lands
  };
  const up = (): void => {
    pointer = false;
  };
  const entered = (): void => {
    if (!pointer && (composerWanted || document.activeElement === null || document.activeElement === document.body)) focusComposer();
    composerWanted = false;
  };
  window.addEventListener('pointerdown', down, true);
  window.addEventListener('pointerup', up, true);
  window.addEventListener('blur', up);
  window.addEventListener('focus', entered);
  return () => {
    window.removeEventListener('pointerdown', down, true);
    window.removeEventListener('pointerup', up, true);
    window.removeEventListener('blur', up);
    window.removeEventListener('focus', entered);
  };
}
