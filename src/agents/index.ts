// `toolnexus/agents`: sub-agents whose questions reach the human — the family's §7D, with the agent tree
// stored by value in the client's storage so a question asked levels down halts and resumes like any run.
export { agent } from "./agent";
export { createAgentRuntime } from "./runtime";
export type { AgentRuntime, AgentRuntimeOptions, HandleInfo, HandleRef } from "./runtime";
export type { Handle, HandleState, InboxItem } from "./handle";
export type {
  Agent,
  AgentOptions,
  AgentResumeOptions,
  AgentRunOptions,
  Budget,
  ResultStatus,
  TaskResult,
} from "./types";
