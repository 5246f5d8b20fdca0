// The demo Worker served by `npm start`.
export default {
  async fetch(): Promise<Response> {
    return new Response("toolnexus demo", { headers: { "content-type": "text/plain" } });
  },
};
export { RunStoreObject } from "toolnexus"; // the Durable Object behind durableObjectStorage({ namespace: env.RUN_STORE })
