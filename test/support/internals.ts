// Internal building blocks the package does not export (so pages only load what they use), reached
// relatively from the sources. This works in every runtime — in Deno, where the rest of the suite runs
// against dist/toolnexus.js, these are the sources' own classes, so the error classes a test compares
// with come from here too.
export { postWithRetry } from "../../src/wire/post";
export type { RetryOptions } from "../../src/wire/post";
export type { ErrorInfo } from "../../src/wire/post";
export { llmHttpError } from "../../src/wire/http-error";
export { redact, REDACTED_BODY_KEYS, REDACTION_PLACEHOLDER } from "../../src/_internal/redact";
export { createMetrics } from "../../src/client/metrics";
export { translateBody, translateResponse, openAIMessagesToAnthropic } from "../../src/client/translate";
export { envApiKey } from "../../src/client/env";
export { parseSSE } from "../../src/_internal/sse";
export type { SSEEvent } from "../../src/_internal/sse";
export { LlmHttpError, NetworkError, StreamError, isToolnexusError } from "../../src/errors";
export { readRelayAnswer } from "../../src/tools/relay-answer";
export { InvalidAnswerError } from "../../src/errors";
export { sha256Hex } from "../../src/_internal/sha256";
