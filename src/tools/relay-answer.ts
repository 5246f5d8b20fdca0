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
 * The result for each call of a relay Request, in the calls' order, from an `ok` Answer: `data.results`
 * (`[{ id, output, isError? }]`, matched by id) takes precedence over `data.output` (+ `data.isError`),
 * which answers the first call. A call with no supplied result gets an error result saying so.
 * An answer with neither, or with a malformed one, throws {@link InvalidAnswerError} naming the field.
 * A declined answer (`ok: false`) gives every call `relay declined for <name>: <reason>`.
 */
export function readRelayAnswer(answer: Answer, calls: { id: string; name: string }[]): ToolResult[] {
  const data: Record<string, unknown> = isPlainObject(answer.data) ? answer.data : {};
  const supplied = new Map<string, ToolResult>();
  if (!answer.ok) {
    // every call is declined below
  } else if (data.results !== undefined) {
    if (!Array.isArray(data.results))
      throw wrong(
        "data.results",
        data.results,
        "an array of {id, output, isError} (build it with relayAnswer(id, results))",
      );
    data.results.forEach((item: unknown, i) => {
      const field = `data.results[${i}]`;
      if (!isPlainObject(item)) throw wrong(field, item, "an object {id, output, isError}");
      if (typeof item.id !== "string") throw wrong(`${field}.id`, item.id, "a string");
      const result = readResult(item, `${field}.`);
      if (!supplied.has(item.id)) supplied.set(item.id, result);
    });
    // results that all name calls this request does not hold are a host bug: refused, never silently dropped
    if (supplied.size && !calls.some((c) => supplied.has(c.id))) {
      throw new InvalidAnswerError(
        "data.results",
        `${PREFIX} data.results names ${JSON.stringify([...supplied.keys()])}, none a call of this request (${JSON.stringify(calls.map((c) => c.id))})`,
      );
    }
  } else if (data.output !== undefined) {
    const result = readResult(data, "data.", " (build it with answerOutput(id, output))");
    if (calls[0]) supplied.set(calls[0].id, result);
  } else {
    const keys = Object.keys(data).sort();
    throw new InvalidAnswerError(
      "data",
      `${PREFIX}.ok is true but its data carries no result the engine can read (expected data.output as a string, or data.results as an array of {id, output, isError}); build it with answerOutput(id, output) or relayAnswer(id, results). Keys seen: [${keys.join(", ")}]`,
    );
  }
  return calls.map((c) =>
    answer.ok
      ? (supplied.get(c.id) ?? { output: `no result supplied on resume for ${c.name}`, isError: true })
      : { output: `relay declined for ${c.name}: ${answer.reason ?? "declined"}`, isError: true },
  );
}

/** `{ output, isError }` read from `item`, whose fields a refusal names `<at>output` and `<at>isError`. */
function readResult(item: Record<string, unknown>, at: string, hint = ""): ToolResult {
  if (typeof item.output !== "string") throw wrong(`${at}output`, item.output, `a string${hint}`);
  if (item.isError !== undefined && typeof item.isError !== "boolean")
    throw wrong(`${at}isError`, item.isError, "a boolean");
  return { output: item.output, isError: item.isError === true };
}
