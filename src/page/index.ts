// toolnexus/page: the page side of a createRunHandler endpoint — the run session (headless, for any
// framework), the reader of its event stream, and the answer helpers a page replies with. Nothing here
// reaches the loop, the wires or the client, so a page importing it downloads none of them.
export { answerApproval, answerDeclined, answerForm, answerOutput, relayAnswer } from "../answer";
export type { AnswerApprovalOptions } from "../answer";
export { readEventStream } from "./read-events";
export { createRunSession } from "./run-session";
export type {
  AnswerOptions,
  RunSession,
  RunSessionCall,
  RunSessionCallStatus,
  RunSessionClock,
  RunSessionError,
  RunSessionMessage,
  RunSessionOptions,
  RunSessionState,
  RunSessionStatus,
  SessionStorageLike,
} from "./run-session";
export type { ConflictReason } from "../errors";
export type { Answer, ApprovalRequest, PendingRequest, RunResult, StreamEvent } from "../types";
