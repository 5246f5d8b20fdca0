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
// the page side and the stores, also at toolnexus/page and toolnexus/storage (re-exported here for this release)
export * from "./page/index";
export * from "./storage/index";
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
export { listApprovals, revokeApprovals } from "./client/approvals-admin";
export type { ApprovalsHolder, ApprovalsWhere, RememberedApproval } from "./client/approvals-admin";
export { createInProcessClient } from "./client/in-process";
export type { InProcessClientOptions, GenerateRequest, GenerateResult } from "./client/in-process";
export { createResumeToken } from "./client/resume-token/create";
export type { ResumeTokenOptions } from "./client/resume-token/create";
