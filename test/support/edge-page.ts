// A page developer's world around a real createRunHandler and a real client with a key and a header: a
// provider that plays scripted turns or hangs until stopped, a page whose session records every snapshot
// and byte it got, and the checks that the server let go of the conversation and that no secret reached the page.
import { expect } from "vitest";
import { createRunSession, type RunSessionState } from "toolnexus";
import { API_KEY, type edgeWorld, HEADER_VALUE, memoryWebStorage, SYSTEM_PROMPT, type EdgeModel } from "./edge";
import { scripted, type ScriptTurn } from "./scripted";

/**
 * A model call that streams `text` (if any) and then never answers, until the call's signal aborts — and
 * then, with `lingerMs`, only that much later (an upstream slow to notice).
 */
export type Hang = { hang: true; text?: string; lingerMs?: number };

/** The provider: each model call plays the next step; it records what it was sent and the calls it saw stopped. */
export function provider(steps: (ScriptTurn | Hang)[], limits: Omit<EdgeModel, "fetch"> = {}) {
  const bodies: Record<string, any>[] = [];
  const headers: Record<string, string>[] = [];
  let stopped = 0;
  const hang = (signal: AbortSignal, text?: string, lingerMs = 0): Promise<Response> =>
    new Promise((resolve, reject) => {
      const stop = (fail: (reason: unknown) => void) => {
        const end = () => (stopped++, fail(signal.reason));
        const go = () => (lingerMs ? setTimeout(end, lingerMs) : end());
        if (signal.aborted) go();
        else signal.addEventListener("abort", go, { once: true });
      };
      if (!text) return stop(reject);
      const delta = { choices: [{ index: 0, delta: { content: text } }] };
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(delta)}\n\n`));
          stop((reason) => c.error(reason));
        },
      });
      resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
    });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const step = steps[bodies.length];
    bodies.push(JSON.parse(String(init?.body)));
    headers.push(Object.fromEntries(new Headers(init?.headers).entries()));
    if (!step) throw new Error(`the provider has no step ${bodies.length - 1}`);
    if (!("hang" in step)) return scripted("openai", [step]).fetch(input, init);
    if (!init?.signal) throw new Error("a model call without a signal would never end");
    return hang(init.signal, step.text, step.lingerMs);
  }) as typeof globalThis.fetch;
  return { model: { ...limits, fetch }, bodies, headers, stopped: () => stopped };
}

/** A page: its session over the world's fetch, every snapshot it was given, and every byte it received. */
export function page(w: ReturnType<typeof edgeWorld>, storage = memoryWebStorage()) {
  const received: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await w.fetch(input, init);
    if (!res.body) return res;
    const decoder = new TextDecoder();
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        received.push(decoder.decode(chunk, { stream: true }));
        c.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(tap), { status: res.status, headers: res.headers });
  }) as typeof globalThis.fetch;
  const session = createRunSession({ endpoint: "/api/run", fetch, storage });
  const seen: RunSessionState[] = [];
  session.subscribe((s) => seen.push(s));
  /** The statuses since snapshot `from`, repeats folded. */
  const statuses = (from: number) =>
    seen
      .slice(from)
      .map((s) => s.status)
      .filter((s, i, all) => i === 0 || s !== all[i - 1]);
  return { session, storage, seen, received, statuses };
}

export const texts = (s: RunSessionState) => s.messages.map((m) => `${m.role}: ${m.text}`);
export const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/**
 * Until the server has let go of the page's conversation: the run the page walked away from has stopped
 * (the page learns nothing of that, so a test that sends again at once would race the server's cleanup).
 */
export async function letGo(w: ReturnType<typeof edgeWorld>, p: ReturnType<typeof page>) {
  const { conversationId } = JSON.parse([...p.storage.data.values()][0]!) as { conversationId: string };
  const busy = async () => {
    const raw = await w.storage.get(`conversation:${conversationId}`);
    return raw === undefined || (JSON.parse(raw) as { busy?: number }).busy !== undefined;
  };
  while (await busy()) await tick();
}

/** The provider was given the key, the header and the system prompt; nothing the page got holds any of them. */
export function expectNoSecrets(p: ReturnType<typeof page>, model: ReturnType<typeof provider>) {
  expect(model.headers[0]).toMatchObject({ authorization: `Bearer ${API_KEY}`, "x-tenant": HEADER_VALUE });
  expect(JSON.stringify(model.bodies[0])).toContain(SYSTEM_PROMPT);
  const pageSaw = [...p.received, JSON.stringify(p.seen), ...p.storage.data.values()].join("\n");
  expect(pageSaw).toMatch(/\S/);
  for (const secret of [API_KEY, HEADER_VALUE, SYSTEM_PROMPT]) expect(pageSaw).not.toContain(secret);
}
