// The public API of `toolnexus`: named re-exports only, grouped like the folders of src/.
export type * from "./types";
export type * from "./tools/types";
export type * from "./storage/contract";
export type * from "./loop/options";
export type * from "./loop/telemetry";
export type * from "./client/types";
export type { ErrorInfo } from "./wire/post";
export { answerOutput, answerDeclined, answerApproval, answerForm, relayAnswer } from "./answer";
export { pending, authRequired, pendingOf } from "./pending";
export type { AnswerApprovalOptions } from "./answer";
export type { PendingInput } from "./pending";
export { parseAnswer, parseRequest } from "./answer-parse";
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
  NetworkError,
  ConfigError,
  OutputError,
} from "./errors";
export type { ToolnexusErrorCode, ResumeTokenProblem, ConflictReason } from "./errors";
export type { TranslateRequest, TranslateResult } from "./client/translate";
export { defineTool } from "./tools/tool";
export type { DefineToolOptions } from "./tools/tool";
export { createToolkit } from "./tools/toolkit";
export type { ToolkitOptions } from "./tools/toolkit";
export { toOpenAI, toAnthropic, toGemini } from "./tools/declarations";
export { httpTool } from "./tools/http-tool";
export type { HttpToolOptions } from "./tools/http-tool";
export { relayTool } from "./tools/relay-tool";
export type { RelayToolOptions } from "./tools/relay-tool";
export { jsonSchema } from "./tools/schema/input-schema";
export type { TypedJSONSchema, InferSchema, StandardSchemaV1, ToolInputSchema } from "./tools/schema/input-schema";
export { eventStreamResponse } from "./edge/event-stream";
export type { EventStreamOptions } from "./edge/event-stream";
export { createRunHandler } from "./edge/run-handler";
export type { RunHandlerContext, RunHandlerOptions } from "./edge/run-handler";
// the page side, also at toolnexus/page (re-exported here for this release)
export { createRunSession, readEventStream } from "./page/index";
export type {
  RunSession,
  RunSessionCall,
  RunSessionCallStatus,
  RunSessionClock,
  RunSessionError,
  RunSessionOptions,
  RunSessionState,
  RunSessionStatus,
  RunSessionMessage,
  SessionStorageLike,
  AnswerOptions,
} from "./page/index";
export { memoryStorage } from "./storage/memory";
export type { MemoryStorageOptions } from "./storage/memory";
export { webStorage } from "./storage/web";
export type { WebStorageOptions, WebStorageLike, LockManagerLike } from "./storage/web";
export { kvStorage } from "./storage/kv";
export type { KvStorageOptions, KVNamespaceLike } from "./storage/kv";
export { durableObjectStorage } from "./storage/durable-object";
export { RunStoreObject } from "./storage/run-store-object";
export type {
  DurableObjectStorageOptions,
  DurableObjectStorageLike,
  DurableObjectNamespaceLike,
  RunStoreStorageLike,
} from "./storage/durable-object";
export { denoKvStorage } from "./storage/deno-kv";
export type { DenoKvStorageOptions, DenoKvLike, DenoKvAtomicLike, DenoKvKey, DenoKvKeyPart } from "./storage/deno-kv";
export { postgresStorage } from "./storage/postgres";
export type {
  PostgresStorageOptions,
  PostgresStorage,
  PostgresQueryLike,
  PostgresUnsafeLike,
} from "./storage/postgres";
export type { SweepingStorage } from "./storage/sql";
export { redisStorage } from "./storage/redis";
export type {
  RedisStorageOptions,
  RedisClientLike,
  NodeRedisLike,
  IoRedisLike,
  UpstashRedisLike,
} from "./storage/redis";
export { d1Storage } from "./storage/d1";
export type { D1StorageOptions, D1Storage, D1DatabaseLike, D1PreparedStatementLike } from "./storage/d1";
export { sqliteStorage } from "./storage/sqlite";
export type { SqliteStorageOptions, SqliteStorage, SqliteDatabaseLike, SqliteStatementLike } from "./storage/sqlite";
export { createClient } from "./client";
export type {
  Client,
  ClientOptions,
  RunOptions,
  ResumeOptions,
  AskOptions,
  Conversation,
  Hooks,
  Inspection,
  InspectOptions,
  RunInspection,
  ExpireOptions,
  ExpireResult,
} from "./client";
export type { Approvals, ApprovalsWhere, RememberedApproval } from "./client/approvals-admin";
export { createInProcessClient } from "./client/in-process";
export type { InProcessClientOptions, GenerateRequest, GenerateResult } from "./client/in-process";
export { createResumeToken } from "./client/resume-token/create";
export type { ResumeTokenOptions } from "./client/resume-token/create";
