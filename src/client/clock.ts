// Each client's clock (`createClient({ clock })`), for the edge handler it is given: a restore continues a run
// whose deadline passed by the client's time. Kept beside each client made by createClient, not on it; a
// client built another way reads the system clock.
import { isExpired } from "../pending";
import type { PendingRequest } from "../types";

export const clocks: WeakMap<object, () => number> = /* @__PURE__ */ new WeakMap();

/** Whether `request`'s deadline passed by `client`'s clock. */
export const isDue = (client: object, request: PendingRequest): boolean =>
  isExpired(request, (clocks.get(client) ?? Date.now)());
