// A provider's event stream, guarded: a line of the stream longer than `maxLineBytes` (an upstream that never
// ends a line would grow the parser's buffer without end) and a stream that sends nothing for `idleMs` (an
// upstream that hangs without closing) each end it with a StreamError; a stop or a deadline (`signal`) ends
// the read in flight with the signal's reason, also when the transport ignores the signal (an injected
// `fetch`, a proxy): the reader sees no chunk that arrived after it. Each ending cancels the body.
import { abortable } from "../_internal/signals";
import { StreamError } from "../errors";

export interface StreamBounds {
  /** The longest line, in bytes. */
  maxLineBytes: number;
  /** The longest silence between two chunks, in ms; 0: none. */
  idleMs: number;
  /** Ends the read with its reason when it aborts. */
  signal?: AbortSignal | undefined;
}

/** Where the first line end (LF or CR) of `bytes` is; -1 for none. */
function firstEnd(bytes: Uint8Array): number {
  const lf = bytes.indexOf(10);
  const cr = bytes.indexOf(13);
  if (lf === -1 || cr === -1) return Math.max(lf, cr);
  return Math.min(lf, cr);
}

/** The next chunk of `reader`, or a rejection once `idleMs` passed without one or `signal` aborted. */
function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, { idleMs, signal }: StreamBounds) {
  const read = abortable(reader.read(), signal);
  if (!idleMs) return read;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new StreamError(
            `toolnexus: the provider's stream sent nothing for ${idleMs} ms — retry the run, or raise streamIdleTimeoutMs`,
          ),
        ),
      idleMs,
    );
  });
  return Promise.race([read, idle]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

/** `body`, ended past a line of `maxLineBytes`, a silence of `idleMs` or an abort of `signal`. */
export function boundedStream(body: ReadableStream<Uint8Array>, bounds: StreamBounds): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let line = 0; // bytes since the last line end
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await readWithin(reader, bounds);
          if (done) return controller.close();
          const first = firstEnd(value);
          const last = Math.max(value.lastIndexOf(10), value.lastIndexOf(13));
          const longest = first === -1 ? line + value.length : Math.max(line + first, value.length - last - 1);
          if (longest > bounds.maxLineBytes)
            throw new StreamError(
              `toolnexus: a line of the provider's stream is over ${bounds.maxLineBytes} bytes — check baseUrl, or raise maxStreamLineBytes`,
            );
          line = first === -1 ? line + value.length : value.length - last - 1;
          controller.enqueue(value);
        } catch (error) {
          reader.cancel(error).catch(() => {});
          throw error;
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // nothing is read ahead of the reader: a chunk that arrives after an abort is never seen
    { highWaterMark: 0 },
  );
}
