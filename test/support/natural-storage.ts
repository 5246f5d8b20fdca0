// Each runtime's natural RunStorage, so the resume scenarios run against a real adapter everywhere:
// Deno KV in Deno, the Durable Object adapter in workerd, localStorage (with Web Locks) in Chromium,
// memory in Node. The runtime modules are imported by a computed name so other runtimes never load them.
import { denoKvStorage, durableObjectStorage, memoryStorage, webStorage, type RunStorage } from "toolnexus";

export interface Natural {
  name: string;
  make(): Promise<RunStorage>;
}

const g = globalThis as Record<string, any>;

export function naturalStorage(): Natural {
  if (g.Deno?.openKv)
    return { name: "Deno KV", make: async () => denoKvStorage({ kv: await g.Deno.openKv(":memory:") }) };
  if (g.navigator?.userAgent === "Cloudflare-Workers") {
    return {
      name: "Durable Object",
      make: async () => {
        const mod = "cloudflare:workers";
        const { env } = await import(/* @vite-ignore */ mod);
        return durableObjectStorage({ namespace: env.RUN_STORE, name: `suite-${crypto.randomUUID()}` });
      },
    };
  }
  if (g.localStorage && g.document) {
    return {
      name: "localStorage",
      make: async () => webStorage({ storage: g.localStorage, prefix: `suite-${crypto.randomUUID()}:` }),
    };
  }
  return { name: "memory", make: async () => memoryStorage() };
}
