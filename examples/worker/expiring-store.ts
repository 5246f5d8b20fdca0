// The demo's Durable Object with deadlines: RunStoreObject keeps its alarm at the earliest deadline it stores,
// and when the alarm fires this subclass continues the runs whose question nobody answered in time — as
// declined ("expired"): the tool never runs, the model is told, the conversation is free again. Bound as
// EXPIRING_STORE in wrangler.toml; a Worker halts runs there with durableObjectStorage({ namespace }).
import { RunStoreObject } from "toolnexus";
import { demoClient } from "./config";
import type { ModelEnv } from "./config";
import { demoTools } from "./tools";
import type { ToolsEnv } from "./tools";

/** What the alarm needs: the model (scripted unless `.dev.vars` names a real one) and the tools' KV. */
export interface ExpiringEnv extends ModelEnv, ToolsEnv {}

// the alarm has no request: the sign-in link of a calendar request that expired is never shown again
const ORIGIN = "http://127.0.0.1:8787";

export class ExpiringRunStore extends RunStoreObject {
  readonly #env: ExpiringEnv;
  constructor(ctx: ConstructorParameters<typeof RunStoreObject>[0], env: ExpiringEnv) {
    super(ctx, env);
    this.#env = env;
  }

  override async alarm(): Promise<void> {
    await super.alarm(); // deletes expired records, re-arms the alarm
    const client = demoClient(this.#env, this.runStorage()); // the storage this object serves
    await client.expire({ toolkit: demoTools(this.#env, ORIGIN) });
  }
}
