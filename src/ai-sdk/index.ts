// toolnexus/ai-sdk: the endpoint the AI SDK's `useChat` talks to (its UI message stream), in front of a client.
export { createUiMessageStreamHandler, type UiMessageStreamHandlerOptions } from "../edge/ui-message-handler";
export { clientToolName, type UiChunk } from "../protocol/ui-message-stream";
