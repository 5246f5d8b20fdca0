// MCP elicitations as toolnexus Requests, and Answers as elicitation responses.
//   form elicitation                 ⇒ kind "input", prompt = message, data.schema = requestedSchema
//   URL elicitation, -32042 error    ⇒ kind "authorization", url
//   ok answer                        ⇒ accept (a form's content is `answer.data`, see answerForm)
//   answerDeclined(id)               ⇒ decline;  any other refusal (cancelled, expired) ⇒ cancel
import type { Answer } from "../index";

export interface ElicitParams {
  mode?: unknown;
  message?: unknown;
  requestedSchema?: unknown;
  url?: unknown;
}

/** What `pending(...)` is given for one elicitation (the id is added by the caller). */
export interface RequestSpec {
  kind: "input" | "authorization";
  prompt: string;
  url?: string;
  data?: Record<string, unknown>;
}

export const isUrlMode = (params: ElicitParams | undefined): boolean => params?.mode === "url";

export function requestFor(params: ElicitParams | undefined): RequestSpec {
  const prompt = typeof params?.message === "string" ? params.message : "The MCP server asks for input";
  if (isUrlMode(params))
    return { kind: "authorization", prompt, url: typeof params?.url === "string" ? params.url : "" };
  const schema =
    typeof params?.requestedSchema === "object" && params.requestedSchema !== null
      ? params.requestedSchema
      : { type: "object", properties: {} };
  return { kind: "input", prompt, data: { schema } };
}

export type ElicitResponse =
  | { action: "accept"; content?: Record<string, unknown> }
  | { action: "decline" }
  | { action: "cancel" };

export function responseFor(params: ElicitParams | undefined, answer: Answer): ElicitResponse {
  if (!answer.ok) return answer.reason === "declined" ? { action: "decline" } : { action: "cancel" };
  return isUrlMode(params) ? { action: "accept" } : { action: "accept", content: answer.data ?? {} };
}

/** The elicitation inside one 2026-07-28 inputRequest, or undefined for anything else (sampling, roots). */
export function elicitationOf(inputRequest: unknown): ElicitParams | undefined {
  const r = inputRequest as { method?: unknown; params?: unknown } | null;
  if (typeof r !== "object" || r === null || r.method !== "elicitation/create") return undefined;
  return typeof r.params === "object" && r.params !== null ? (r.params as ElicitParams) : {};
}
