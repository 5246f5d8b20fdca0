// A request as the endpoint reads it: a POST's body (JSON, under maxBodyBytes, counted while reading) checked
// against the protocol (protocol/requests.ts), and a GET's query. What it cannot use is refused with a 4xx
// before the client is called: nothing is stored, nothing runs.
import { ToolnexusError } from "../errors";
import type { EventId } from "../protocol/event-id";
import { LAST_EVENT_ID_HEADER } from "../protocol/headers";
import { badRequest, checkEventId, checkId, checkRunRequest, type RunRequest } from "../protocol/requests";

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** The body's bytes, refused once they pass `max` (whatever Content-Length claims). */
async function readBody(request: Request, max: number): Promise<ArrayBuffer> {
  const tooLarge = () => {
    throw new ToolnexusError("payload_too_large", `toolnexus: the request body is over ${max} bytes`);
  };
  if (Number(request.headers.get("content-length")) > max) tooLarge();
  const chunks: Uint8Array[] = [];
  const reader = request.body?.getReader();
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      tooLarge();
    }
    chunks.push(value);
  }
  return new Blob(chunks as BufferSource[]).arrayBuffer();
}

/** A POST's body as JSON: of content-type application/json, at most `max` bytes, in UTF-8; else a 4xx. */
export async function readJson(request: Request, max: number): Promise<unknown> {
  if (!JSON_TYPE.test(request.headers.get("content-type") ?? ""))
    throw new ToolnexusError(
      "unsupported_media_type",
      "toolnexus: send the body as JSON with content-type: application/json",
    );
  const bytes = await readBody(request, max);
  try {
    // ignoreBOM: false is the default, spelled out because the Workers types require it
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return badRequest("the request body is not JSON in UTF-8");
  }
}

/** What a POST asks for: its JSON body, at most `max` bytes, checked against the protocol. */
export async function readRunRequest(request: Request, max: number): Promise<RunRequest> {
  return checkRunRequest(await readJson(request, max));
}

/**
 * What a GET asks about: the run, and a reader of the event a replay starts after (undefined when it asks for
 * none; the id is checked when read, once the caller may see the run).
 */
export function readQuery(request: Request): { runId: string; after: (() => EventId) | undefined } {
  const url = new URL(request.url);
  const runId = checkId(url.searchParams.get("runId"), "runId");
  // an EventSource that reconnects sends the last id it got, newer than the `after` in its URL
  const from = request.headers.get(LAST_EVENT_ID_HEADER) ?? url.searchParams.get("after");
  return { runId, after: from === null ? undefined : () => checkEventId(from) };
}
