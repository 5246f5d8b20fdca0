// What the AG-UI and UI-message encoders share: a run's StreamEvents in, each protocol's frames out, with the
// text and reasoning deltas (the most frequent events) dispatched once here and every other event to the
// protocol; the ids of the parts they open are numbered here too.
import type { StreamEvent } from "../types";

export abstract class EventEncoder<T> {
  private n = 0;

  constructor(protected readonly prefix: string) {}

  /** What the stream opens with, before the first event's frames. */
  abstract start(): T[];

  /** What `event` is in the protocol: none, one or several frames. */
  encode(event: StreamEvent): T[] {
    const out: T[] = [];
    if (event.type === "text") {
      if (event.delta) this.textDelta(out, event.delta);
    } else if (event.type === "reasoning") {
      if (event.delta) this.reasoningDelta(out, event.delta);
    } else this.other(out, event);
    return out;
  }

  /** A fresh id for a part this stream opens: the prefix, what it is, its number. */
  protected id(what: string): string {
    this.n++;
    return `${this.prefix}-${what}${this.n}`;
  }

  protected abstract textDelta(out: T[], delta: string): void;
  protected abstract reasoningDelta(out: T[], delta: string): void;
  /** Every event but a text or reasoning delta. */
  protected abstract other(out: T[], event: StreamEvent): void;
}
