// The HTTP headers the run endpoint and the page agree on, declared once for both sides.

/** The response header that names the run an exchange's events belong to. */
export const RUN_ID_HEADER = "toolnexus-run-id";

/** The request header an EventSource sends when it reconnects: the id of the last event it got. */
export const LAST_EVENT_ID_HEADER = "last-event-id";

/** The content type of a request body the endpoint reads. */
export const JSON_CONTENT_TYPE = "application/json";

/** The content type of an event stream. */
export const EVENT_STREAM_CONTENT_TYPE = "text/event-stream; charset=utf-8";
