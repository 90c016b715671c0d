// What the person typed while a turn ran: each message waits here, removable, until the
// loop's next step reads it (its `incoming`), and joins the history as a user message
// before the next model request.

export interface QueuedMessage {
  readonly id: string;
  readonly text: string;
}

export class MessageQueue {
  private items: QueuedMessage[] = [];
  private next = 1;

  add(text: string): QueuedMessage {
    const message = { id: `q${this.next++}`, text };
    this.items.push(message);
    return message;
  }

  /** Taken back before it was delivered; false when it was delivered already (or never queued). */
  remove(id: string): boolean {
    const before = this.items.length;
    this.items = this.items.filter((m) => m.id !== id);
    return this.items.length !== before;
  }

  get messages(): readonly QueuedMessage[] {
    return this.items;
  }

  /** The first message, taken out (to start a turn with, when none runs to deliver it). */
  shift(): QueuedMessage | undefined {
    return this.items.shift();
  }

  /** Every message, taken out in order (delivered now). */
  drain(): QueuedMessage[] {
    return this.items.splice(0);
  }
}
