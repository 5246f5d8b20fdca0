// What a reloaded page finds again, in one request (`POST { runId, restore: true }`): the exchange that was
// streaming, replayed from its first event and followed to its end, each event once; or the kept run as it
// stands — its open requests, a run whose answers were applied continued, or its end.
import { formatEventId } from "../protocol/event-id";
import type { RestoreBody } from "../protocol/requests";
import { load } from "./kept";
import { type Core, forgetRun, IDLE, update } from "./state";
import { playExchange } from "./stream";

export async function restore(core: Core): Promise<void> {
  core.kept = load(core.storage, core.key);
  update(core, { ...IDLE, messages: core.kept.messages });
  const { stream, tokens = {} } = core.kept;
  const runId = stream?.runId ?? core.kept.runId;
  if (!runId) return;
  update(core, { status: "streaming" });
  const body: RestoreBody = {
    runId,
    restore: true,
    // a reload while an exchange streamed: it goes on from its first event, the messages it made replayed
    after: stream && formatEventId(stream.exchange, 0),
    token: Object.values(tokens)[0], // any token of the run continues one whose answers were applied
  };
  await playExchange(core, body, (error) => {
    if (error?.code !== "run_not_found") return undefined;
    // expired, or never the endpoint's: what was kept stays shown
    forgetRun(core);
    update(core, { status: "idle" });
    return true;
  });
}
