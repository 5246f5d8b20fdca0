// workerd only: the demo Worker (the project's main) builds its run handler once, so a stop can land on the
// isolate running the exchange from another request. workerd does not let one request abort a controller
// another request made; the stop must still be taken (202) and end the exchange through the storage.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const post = (body: unknown) =>
  SELF.fetch("http://demo.test/api/run", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The SSE events of a response, read as they come. */
async function* events(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    for (; end >= 0; end = buffer.indexOf("\n\n")) {
      const data = buffer
        .slice(0, end)
        .split("\n")
        .find((l) => l.startsWith("data: "));
      buffer = buffer.slice(end + 2);
      if (data) yield JSON.parse(data.slice(6)) as { type: string; delta?: string; result?: Record<string, unknown> };
    }
  }
}

describe("the demo Worker: Stop from another request", () => {
  it("ends the running answer: 202, then the exchange ends incomplete with the text it streamed", async () => {
    const response = await post({ prompt: "Tell me a story" });
    const runId = response.headers.get("toolnexus-run-id");
    const stream = events(response);
    let words = 0;
    while (words < 3) if ((await stream.next()).value?.type === "text") words++;
    const stop = await post({ runId, stop: true });
    expect([stop.status, await stop.json()]).toEqual([202, { status: "stopping" }]);
    let last: { type: string; result?: Record<string, unknown> } | undefined;
    for await (const event of stream) last = event;
    expect(last).toMatchObject({ type: "done", result: { status: "incomplete", limit: "aborted" } });
    expect(String(last!.result!.text)).toMatch(/^Once upon a time/);
    expect(String(last!.result!.text)).not.toMatch(/The end\./);
  }, 30_000);
});
