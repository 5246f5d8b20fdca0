// A scripted `fetch` for the tool tests: answers from a function and records what it was sent. No network.
export interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
}

export interface FakeFetch {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  seen: SeenRequest[];
}

export function fakeFetch(
  respond: (req: SeenRequest) => Response | Promise<Response> = () => new Response("ok"),
): FakeFetch {
  const seen: SeenRequest[] = [];
  return {
    seen,
    async fetch(input, init = {}) {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, key) => (headers[key] = value));
      const req: SeenRequest = {
        url: String(input),
        method: init.method ?? "GET",
        headers,
        body: typeof init.body === "string" ? init.body : undefined,
        signal: init.signal ?? undefined,
      };
      seen.push(req);
      return respond(req);
    },
  };
}

/** A fetch that never answers: it rejects only when its signal aborts (with the signal's reason). */
export function hangingFetch(): FakeFetch {
  return fakeFetch(
    (req) =>
      new Promise<Response>((_, reject) => {
        const signal = req.signal;
        if (!signal) return;
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
  );
}

/** Runs `fn` with `console.warn` captured; the original is always restored. */
export async function captureWarnings(fn: () => unknown): Promise<string[]> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  try {
    await fn();
  } finally {
    console.warn = original;
  }
  return warnings;
}
