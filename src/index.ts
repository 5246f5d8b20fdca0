export type * from "./types";
export { answerOutput, answerDeclined, answerForm, relayAnswer, pending, authRequired, pendingOf } from "./answer";
export type { PendingInput, RelayResult } from "./answer";
export { parseAnswer, parseRequest } from "./answer";
export {
  ToolnexusError,
  isToolnexusError,
  AnswerMismatchError,
  InvalidAnswerError,
  RunNotFoundError,
  RunStateError,
  RunConflictError,
  StorageError,
  LlmHttpError,
  StreamError,
  ResumeTokenError,
  ConfigError,
} from "./errors";
export type { ToolnexusErrorCode, ResumeTokenProblem } from "./errors";
export type { TranslateRequest, TranslateResult } from "./client/translate";
export { defineTool } from "./tools/tool";
export type { DefineToolOptions } from "./tools/tool";
export { createToolkit } from "./tools/toolkit";
export type { ToolkitOptions } from "./tools/toolkit";
export { toOpenAI, toAnthropic, toGemini } from "./tools/declarations";
export { httpTool } from "./tools/http-tool";
export type { HttpToolOptions } from "./tools/http-tool";
export { relayTool } from "./tools/relay-tool";
export { eventStreamResponse, readEventStream } from "./edge/event-stream";
export { memoryStorage } from "./storage/memory";
export type { MemoryStorageOptions } from "./storage/memory";
export { webStorage } from "./storage/web";
export type { WebStorageOptions, WebStorageLike, LockManagerLike } from "./storage/web";
export { kvStorage } from "./storage/kv";
export type { KvStorageOptions, KVNamespaceLike } from "./storage/kv";
export { durableObjectStorage, RunStoreObject } from "./storage/durable-object";
export type {
  DurableObjectStorageOptions,
  DurableObjectStorageLike,
  DurableObjectNamespaceLike,
  RunStoreStorageLike,
} from "./storage/durable-object";
export { denoKvStorage } from "./storage/deno-kv";
export type { DenoKvStorageOptions, DenoKvLike, DenoKvAtomicLike, DenoKvKey, DenoKvKeyPart } from "./storage/deno-kv";
export { createClient } from "./client";
export type { Client, ClientOptions, RunOptions, ResumeOptions, AskOptions, Conversation, Hooks } from "./client";
export { createInProcessClient } from "./client/in-process";
export type { InProcessClientOptions, GenerateRequest, GenerateResult } from "./client/in-process";
export { createResumeToken } from "./client/resume-token/create";
export type { ResumeTokenOptions } from "./client/resume-token/create";
