// Internal building blocks the package does not export (so pages only load what they use), reached
// relatively from the sources. This works in every runtime — in Deno, where the rest of the suite runs
// against dist/toolnexus.js, these are the sources' own classes, so the error classes a test compares
// with come from here too.
export { postWithRetry } from "../../../src/http/retry";
export type { ErrorInfo, RetryOptions } from "../../../src/http/retry";
export { redactErrorBody, llmHttpError, REDACTED_BODY_KEYS, REDACTION_PLACEHOLDER } from "../../../src/http/redact";
export { createMetrics } from "../../../src/metrics";
export { translateBody, translateResponse, openAIMessagesToAnthropic } from "../../../src/translate";
export { envApiKey } from "../../../src/env";
export { parseSSE } from "../../../src/wire/sse";
export type { SSEEvent } from "../../../src/wire/sse";
export { LlmHttpError, StreamError, isToolnexusError } from "../../../src/errors";
export { readRelayAnswer } from "../../../src/relay-answer";
export { InvalidAnswerError } from "../../../src/errors";
export { sha256Hex } from "../../../src/sha256";
