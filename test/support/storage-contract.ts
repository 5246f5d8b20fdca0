// The shared storage contract is the published one (toolnexus/testing), registered with vitest's test
// functions — under Deno, the vitest shim's: `storageContract("memoryStorage", ({ now }) => memoryStorage({ now }), { atomic: true, ttl: "clock" })`.
import { describe, it } from "vitest";
import { storageContract as published, type ContractEnv, type ContractOptions } from "toolnexus/testing";
import type { RunStorage } from "toolnexus";

export { bigValue, ODD_KEYS, ODD_VALUES } from "toolnexus/testing";
export type { ContractEnv } from "toolnexus/testing";

export function storageContract(
  name: string,
  makeStorage: (env: ContractEnv) => RunStorage | Promise<RunStorage>,
  opts: Required<Pick<ContractOptions, "atomic" | "ttl">> & ContractOptions,
): void {
  published(name, makeStorage, { describe, it, ...opts });
}
