// A provider `fetch` that misbehaves on purpose: status codes with any Retry-After, dropped
// connections, hangs until aborted, SSE streams cut mid tool-call — then delegates to a script.
import type { Scripted } from "./scripted";

export type Fault =
  | { status: number; retryAfter?: string; body?: string }
  | { drop: true }
  | { hang: true }
  | { cut: string };

export function faulty(
  faults: Fault[],
  then?: Scripted,
): { fetch: typeof fetch; hits: () => number; aborted: () => number } {
  let hits = 0;
  let aborted = 0;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const fault = faults[hits++];
    if (!fault) {
      if (!then) throw new Error("faulty fetch: no more faults and no script");
      return then.fetch(input, init);
    }
    if ("drop" in fault) throw new TypeError("fetch failed: connection reset");
    if ("hang" in fault) {
      return new Promise<Response>((_, reject) => {
        const signal = init?.signal;
        if (!signal) return;
        signal.addEventListener("abort", () => (aborted++, reject(signal.reason)), { once: true });
      });
    }
    if ("cut" in fault) {
      const bytes = new TextEncoder().encode(fault.cut);
      return new Response(new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }), {
        headers: { "content-type": "text/event-stream" },
      });
    }
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
    return new Response(fault.body ?? JSON.stringify({ error: { message: `status ${fault.status}` } }), {
      status: fault.status,
      headers,
    });
  }) as typeof globalThis.fetch;
  return { fetch, hits: () => hits, aborted: () => aborted };
}

/** Captures console.warn while `fn` runs (the suite has no `vi`). */
export async function captureWarnings<T>(fn: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  try {
    return { value: await fn(), warnings };
  } finally {
    console.warn = original;
  }
}
