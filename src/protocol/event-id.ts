// An event's id, `<exchange>:<n>`: the exchange of the run it belongs to (1 is the run's first) and its
// number in that exchange (from 1). `<exchange>:0` names the point before an exchange's first event.

export interface EventId {
  exchange: number;
  /** The event's number in its exchange; 0 for the point before its first event. */
  n: number;
}

const EVENT_ID = /^([1-9]\d{0,8}):(0|[1-9]\d{0,8})$/;

/** The id of event `n` of exchange `exchange`. */
export function formatEventId(exchange: number, n: number): string {
  return `${exchange}:${n}`;
}

/** The exchange and number an id names, or undefined for text that is no event id. */
export function parseEventId(value: unknown): EventId | undefined {
  const match = typeof value === "string" ? EVENT_ID.exec(value) : null;
  if (!match) return undefined;
  return { exchange: Number(match[1]), n: Number(match[2]) };
}
