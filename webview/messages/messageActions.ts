// What a message's hover actions do (webview/messages/Message.svelte): given by the app
// to the main chat's messages through Svelte's context, so the transcript between them
// passes nothing along; a subagent's read-only transcript gets none.
import { getContext, setContext } from 'svelte';

export interface MessageActions {
  copy(text: string): void;
  /** Edit and resend a message of the person's. */
  edit(entryId: string, text: string): void;
  /** Run the turn of Peon's last answer again. */
  retry(entryId: string): void;
  /** A turn runs: Edit and Retry wait until it ends. */
  readonly busy: boolean;
  /** The last answer of the chat: Retry is offered there. */
  readonly lastAnswer: string | undefined;
}

const KEY = Symbol('peon.messageActions');

export const provideMessageActions = (actions: MessageActions): void => void setContext(KEY, actions);
export const messageActions = (): MessageActions | undefined => getContext<MessageActions | undefined>(KEY);
