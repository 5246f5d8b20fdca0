export type * from "./types";
export { answerOutput, answerDeclined, relayAnswer, pending, authRequired, pendingOf } from "./answer";
export type { PendingInput, RelayResult } from "./answer";
export { parseAnswer, parseRequest } from "./parse";
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
} from "./errors";
export type { ToolnexusErrorCode } from "./errors";
