// The page ↔ edge contract, imported by the endpoint (edge/) and the page (page/) alike: request bodies and
// their checker, the error body and its statuses, event ids, header names. Nothing here is retyped as a
// literal on either side.
export * from "./error-body";
export * from "./event-id";
export * from "./headers";
export * from "./requests";
