// Reading the host's results for relayed tool calls out of an Answer: `data.results` (one result per call,
// by id) when present, else `data.output` (the first call's output).
import { isPlainObject, typeName } from "../_internal/json";
import { InvalidAnswerError } from "../errors";
import type { Answer, ToolResult } from "../types";

const PREFIX = "toolnexus: cannot resume — answer";

function wrong(field: string, value: unknown, want: string): InvalidAnswerError {
  return new InvalidAnswerError(field, `${PREFIX} ${field} is ${typeName(value)}, want ${want}`);
}

/**
 * The result for each call of a relay Request, keyed by call id, from an `ok` Answer: `data.results`
 * (`[{ id, output, isError? }]`, matched by id) takes precedence over `data.output` (+ `data.isError`),
 * which answers the first call. A call with no supplied result gets an error result saying so.
 * An answer with neither, or with a malformed one, throws {@link InvalidAnswerError} naming the field.
 * A declined answer (`ok: false`) gives every call `relay declined for <name>: <reason>`.
 */
export function readRelayAnswer(answer: Answer, calls: { id: string; name: string }[]): Map<string, ToolResult> {
  if (!answer.ok) {
    return new Map(
      calls.map((c) => [
        c.id,
        { output: `relay declined for ${c.name}: ${answer.reason ?? "declined"}`, isError: true },
      ]),
    );
  }
  const data: Record<string, unknown> = isPlainObject(answer.data) ? answer.data : {};
  const supplied = new Map<string, ToolResult>();
  if (data.results !== undefined) {
    const results = readResults(data.results);
    for (const [id, result] of results) if (!supplied.has(id)) supplied.set(id, result);
    // results that all name calls this request does not hold are a host bug: refused, never silently dropped
    if (results.length > 0 && !calls.some((c) => supplied.has(c.id))) {
      throw new InvalidAnswerError(
        "data.results",
        `${PREFIX} data.results names only ${results.map(([id]) => `"${id}"`).join(", ")}, none of them a call of this request — answer the relayed calls ${calls.map((c) => `"${c.id}"`).join(", ")} (data.calls[].id) with relayAnswer(id, results)`,
      );
    }
  } else if (data.output !== undefined) {
    if (typeof data.output !== "string")
      throw wrong("data.output", data.output, "a string (build it with answerOutput(id, output))");
    if (data.isError !== undefined && typeof data.isError !== "boolean")
      throw wrong("data.isError", data.isError, "a boolean");
    if (calls[0]) supplied.set(calls[0].id, { output: data.output, isError: data.isError === true });
  } else {
    const keys = Object.keys(data).sort();
    throw new InvalidAnswerError(
      "data",
      `toolnexus: cannot resume — answer.ok is true but its data carries no result the engine can read (expected data.output as a string, or data.results as an array of {id, output, isError}); build it with answerOutput(id, output) or relayAnswer(id, results). Keys seen: [${keys.join(", ")}]`,
    );
  }
  const out = new Map<string, ToolResult>();
  for (const call of calls)
    out.set(
      call.id,
      supplied.get(call.id) ?? { output: `no result supplied on resume for ${call.name}`, isError: true },
    );
  return out;
}

function readResults(results: unknown): [string, ToolResult][] {
  if (!Array.isArray(results))
    throw wrong("data.results", results, "an array of {id, output, isError} (build it with relayAnswer(id, results))");
  return results.map((item: unknown, i) => {
    const field = `data.results[${i}]`;
    if (!isPlainObject(item)) throw wrong(field, item, "an object {id, output, isError}");
    if (typeof item.id !== "string") throw wrong(`${field}.id`, item.id, "a string");
    if (typeof item.output !== "string") throw wrong(`${field}.output`, item.output, "a string");
    if (item.isError !== undefined && typeof item.isError !== "boolean")
      throw wrong(`${field}.isError`, item.isError, "a boolean");
    return [item.id, { output: item.output, isError: item.isError === true }];
  });
}
