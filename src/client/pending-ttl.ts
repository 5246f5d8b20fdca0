// Each client's pendingTtlSeconds, for the edge handler it is given: what the handler keeps of a run (its
// event log, its owner stamp) lives as long as the halted run. Kept beside each client made by createClient,
// not on it (a Client has no such field); a client built another way (a wrapper, another copy of the
// package) is not found here.
export const pendingTtls: WeakMap<object, number> = /* @__PURE__ */ new WeakMap();
