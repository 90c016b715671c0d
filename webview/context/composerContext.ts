// What the composer shows of the context chips, as the host last posted it (App.svelte
// keeps it): the chips for the next message, the active editor's, the `@` picker's answer.
import type { ContextChip, EditorChip, FileMatch, WebviewMessage } from '../../src/shared/messages';
import { sameChip } from '../../src/shared/messages';

export interface ComposerContext {
  chips: ContextChip[];
  active: EditorChip | null;
  matches: { query: string; items: FileMatch[] };
}

export const noContext = (): ComposerContext => ({ chips: [], active: null, matches: { query: '', items: [] } });

/** A chip picked or removed here shows at once; the host's next `context` message is the truth. */
export function applyLocally(context: ComposerContext, message: Extract<WebviewMessage, { type: 'addContext' | 'removeContext' | 'findFiles' }>): void {
  if (message.type === 'addContext' && !context.chips.some((c) => sameChip(c, message.chip))) context.chips.push(message.chip);
  if (message.type === 'removeContext') context.chips = context.chips.filter((c) => c.id !== message.id);
}
