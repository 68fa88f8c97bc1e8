/**
 * A value already serialised to JSON, to be embedded as it is wherever the link writes it. A batch is
 * stringified once for the outbox and its size check; sending that same text saves serialising every batch
 * a second time (in bench:hosts, a batch is ~250 events and ~80 KB).
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** `JSON.stringify`, except that a JsonText is its own text. */
export function jsonOf(value: unknown): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value);
}
