// Whether a request's deadline passed by a client's own time (`client.clock`): an edge handler's restore
// continues a run whose deadline passed by the same clock its client keeps. A client-like object without a
// clock reads the system clock.
import type { Clock } from "../loop/options";
import { isExpired } from "../pending";
import type { PendingRequest } from "../types";

/** Whether `request`'s deadline passed by `client`'s clock. */
export function isDue(client: { readonly clock?: Clock }, request: PendingRequest): boolean {
  return isExpired(request, client.clock?.now() ?? Date.now());
}
