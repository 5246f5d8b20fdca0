// A failure of the MCP client in words for whoever reads it (the model, or a person reading
// `connection.error`): the innermost cause where the outer message hides it ("fetch failed" → "connect
// ECONNREFUSED …"), a timeout named after `timeoutMs`, and never a secret — the configured header values and
// the URL's query are masked, as are credential-shaped words a server may echo back.
import { redact } from "../_internal/redact";

const REQUEST_TIMEOUT = "REQUEST_TIMEOUT";

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  data?: { timeout?: unknown };
  cause?: unknown;
}

const textOf = (error: unknown): string => {
  const message = (error as ErrorLike | null)?.message;
  return typeof message === "string" && message !== "" ? message : String(error);
};

/** The error and its causes, outermost first (a few levels: a chain is never that deep). */
function chain(error: unknown): unknown[] {
  const out = [error];
  let e = error;
  while (out.length < 6 && typeof e === "object" && e !== null && (e as ErrorLike).cause !== undefined) {
    e = (e as ErrorLike).cause;
    out.push(e);
  }
  return out;
}

/** Whether the error or any of its causes mentions one of `secrets` (then it must not be handed on). */
export function mentions(error: unknown, secrets: readonly string[]): boolean {
  const texts = chain(error).map((e) => `${textOf(e)}\n${(e as { stack?: unknown } | null)?.stack ?? ""}`);
  return secrets.some((s) => s.length >= 4 && texts.some((t) => t.includes(s)));
}

/** Why `error` happened, in one line with no secret in it. */
export function reasonOf(error: unknown, secrets: readonly string[], timeoutMs: number | undefined): string {
  const e = error as ErrorLike | null;
  // the client reports a call its signal cancelled with the same code, but without the limit it waited for
  if (e?.code === REQUEST_TIMEOUT && typeof e.data?.timeout === "number") {
    const waited = e.data.timeout;
    const limit =
      timeoutMs === undefined ? "the MCP client's default limit; set timeoutMs to change it" : "connectMcp's timeoutMs";
    return redact(`no answer within ${waited} ms (${limit})`, secrets);
  }
  let text = textOf(error);
  const inner = chain(error).at(-1);
  if (inner !== error && !text.includes(textOf(inner))) text += ` (${textOf(inner)})`;
  return redact(text, secrets);
}
