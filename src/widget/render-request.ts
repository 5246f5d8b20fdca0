// One open Request drawn as what fits its kind, for the chat element and for apps that draw their own chat:
// `input` → a text field, or a form from data.schema; `question` → option buttons (toggles and a Submit when
// several may be chosen); `approval` → Approve / Decline with an optional reason; `authorization` → a
// sign-in link that opens in a new tab (http and https only); `tool_call` → a result field per call; any
// other kind → a text field. The reply is an Answer built with the SDK's answer helpers, handed to onAnswer.
import { answerDeclined, answerForm, answerOutput, relayAnswer } from "../page/index";
import type { Answer, PendingRequest, QuestionItem } from "../types";
import { h, safeHref, uid } from "./dom";
import { formSchema, readFields, schemaField } from "./schema-form";
import { type ChatStrings, mergeStrings } from "./strings";

export interface RenderRequestOptions {
  /** Called with the Answer, and the text to show as the user's message (e.g. the chosen option). */
  onAnswer(answer: Answer, text: string): void;
  /** Strings merged over the English defaults. */
  strings?: Partial<ChatStrings>;
  /**
   * Shows "Always allow" on approvals that are remembered (`data.rememberable`, set by `needsApproval`): returns
   * the Answer that approves and remembers, e.g. `(id) => answerApproval(id, { remember: "conversation" })`.
   * Without it the button is not shown.
   */
  alwaysAllow?: (id: string) => Answer;
}

type AnyRequest = PendingRequest<string>;
type Ctx = { request: AnyRequest; s: ChatStrings; options: RenderRequestOptions; card: HTMLElement };

const button = (text: string, part: string, onclick?: () => void, type: "button" | "submit" = "button") =>
  h("button", { type, part: `button ${part}`, className: part, onclick }, text);

/** A text field and its submit button in a form of their own, so Enter submits. */
function textReply(ctx: Ctx, extra: HTMLElement[] = []): HTMLFormElement {
  const { request, s, options } = ctx;
  const input = h("input", {
    type: "text",
    name: "answer",
    placeholder: s.answerPlaceholder,
    "aria-label": s.answerLabel,
    autocomplete: "off",
    part: "answer-input",
  });
  const form = h("form", { className: "row", part: "reply" }, input, button(s.reply, "primary", undefined, "submit"));
  form.append(...extra);
  form.onsubmit = (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) options.onAnswer(answerOutput(request.id, text), text);
  };
  return form;
}

const decline = (ctx: Ctx, label: string, said: string) =>
  button(label, "decline", () => ctx.options.onAnswer(answerDeclined(ctx.request.id), said));

/** A form of the fields' boxes with submit and decline buttons; `submitted` runs once the browser has checked it. */
function fieldsForm(
  ctx: Ctx,
  fields: readonly { box: HTMLElement }[],
  declined: string,
  submitted: () => void,
): HTMLFormElement {
  const { s } = ctx;
  const form = h("form", { className: "fields", part: "form" }, ...fields.map((f) => f.box));
  form.append(
    h("div", { className: "row" }, button(s.submit, "primary", undefined, "submit"), decline(ctx, s.decline, declined)),
  );
  form.onsubmit = (event) => {
    event.preventDefault(); // the browser has checked required fields, bounds and formats
    submitted();
  };
  return form;
}

function schemaForm(ctx: Ctx, schema: NonNullable<ReturnType<typeof formSchema>>): HTMLFormElement {
  const { request, s, options } = ctx;
  const required = new Set(schema.required);
  const fields = Object.entries(schema.properties).map(([name, spec]) =>
    schemaField(name, spec, required.has(name), s),
  );
  return fieldsForm(ctx, fields, s.formDeclined, () => {
    const { values, text } = readFields(fields, s);
    options.onAnswer(answerForm(request.id, values), text);
  });
}

/** The questions of a question Request: the builtin tool's `data.questions`, or `data.options` of a tool's own. */
function questionsOf(request: AnyRequest): QuestionItem[] {
  const data = (request.data ?? {}) as { questions?: unknown; options?: unknown; multiple?: unknown };
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((o): o is string => typeof o === "string") : []);
  if (Array.isArray(data.questions))
    return data.questions
      .filter((q): q is QuestionItem => typeof q?.question === "string")
      .map((q) => ({ question: q.question, options: strings(q.options), multiple: q.multiple === true }));
  return [{ question: request.prompt, options: strings(data.options), multiple: data.multiple === true }];
}

function question(ctx: Ctx): HTMLElement[] {
  const { request, s, options } = ctx;
  const questions = questionsOf(ctx.request);
  const one = questions.length === 1 && !questions[0]!.multiple;
  const picked = questions.map(() => new Set<string>());
  const groups = questions.map((q, i) => {
    const name = uid("tnx-q");
    const group = h("div", { role: "group", className: "row options", "aria-labelledby": name });
    for (const option of q.options ?? []) {
      const b = button(option, "option", () => {
        if (one) return options.onAnswer(answerOutput(request.id, option), option);
        if (!q.multiple) picked[i]!.clear();
        picked[i]!.has(option) ? picked[i]!.delete(option) : picked[i]!.add(option);
        for (const other of group.querySelectorAll("button"))
          other.setAttribute("aria-pressed", String(picked[i]!.has(other.textContent ?? "")));
      });
      if (!one) b.setAttribute("aria-pressed", "false");
      group.append(b);
    }
    return h("div", { className: "question" }, h("p", { className: "prompt", id: name }, q.question), group);
  });
  const out: HTMLElement[] = [...groups];
  if (!one && questions.some((q) => q.options?.length)) {
    const submit = () => {
      const lines = questions.map(
        (q, i) => `${questions.length > 1 ? `${q.question}: ` : ""}${[...picked[i]!].join(", ")}`,
      );
      options.onAnswer(answerOutput(request.id, lines.join("\n")), lines.join(" · "));
    };
    out.push(h("div", { className: "row" }, button(s.submit, "primary", submit)));
  }
  out.push(textReply(ctx, [decline(ctx, s.skip, s.skipped)]));
  return out;
}

function approval(ctx: Ctx): HTMLElement[] {
  const { request, s, options } = ctx;
  const data = (request.data ?? {}) as { args?: unknown; rememberable?: unknown };
  const out: HTMLElement[] = [];
  if (data.args && typeof data.args === "object" && Object.keys(data.args).length)
    out.push(h("pre", { className: "args", part: "args" }, JSON.stringify(data.args, null, 2)));
  const reasonId = uid("tnx-reason");
  // a decline message is at most 1000 characters on the wire
  const reason = h("input", {
    type: "text",
    id: reasonId,
    name: "reason",
    autocomplete: "off",
    maxLength: 1000,
    part: "reason-input",
  });
  const approve = () => options.onAnswer(answerOutput(request.id, "approved"), s.approved);
  const row = h("div", { className: "row" }, button(s.approve, "primary approve", approve));
  // "Always allow" only where the answer is remembered: needsApproval's gate, not a tool's own approval request
  const always = data.rememberable === true && options.alwaysAllow;
  if (always) row.append(button(s.alwaysAllow, "always", () => options.onAnswer(always(request.id), s.alwaysAllowed)));
  // the reason comes before its Decline, so Tab reaches it first and Enter in it declines
  const declining = button(s.decline, "decline", undefined, "submit");
  const why = h(
    "form",
    { className: "row reason", part: "reason" },
    h("label", { for: reasonId }, s.reasonLabel),
    reason,
    declining,
  );
  why.onsubmit = (event) => {
    event.preventDefault();
    const message = reason.value.trim();
    const answer = answerDeclined(request.id);
    options.onAnswer(
      message ? Object.assign(answer, { message }) : answer,
      message ? `${s.declined}: ${message}` : s.declined,
    );
  };
  out.push(row, why);
  return out;
}

function authorization(ctx: Ctx): HTMLElement[] {
  const { request, s, options } = ctx;
  const row = h("div", { className: "row" });
  const href = safeHref(request.url);
  if (href)
    row.append(
      h("a", { href, target: "_blank", rel: "noopener noreferrer", className: "signin", part: "signin" }, s.signIn),
    );
  row.append(
    button(s.signedIn, "primary", () => options.onAnswer(answerOutput(request.id, "signed in"), s.signedInText)),
    decline(ctx, s.cancel, s.cancelledText),
  );
  return [row];
}

function toolCalls(ctx: Ctx): HTMLElement[] {
  const { request, s, options } = ctx;
  const calls = Array.isArray(request.data?.calls) ? (request.data.calls as { id?: unknown; name?: unknown }[]) : [];
  const fields = calls.map((call) => {
    const id = uid("tnx-call");
    const input = h("input", { type: "text", id, name: String(call.id), required: true, part: "answer-input" });
    return {
      call,
      input,
      box: h(
        "div",
        { className: "field", part: "field" },
        h("label", { className: "label", for: id }, `${s.resultLabel}: ${String(call.name)}`),
        input,
      ),
    };
  });
  const form = fieldsForm(ctx, fields, s.declined, () => {
    const results = fields.map((f) => ({ id: String(f.call.id), output: f.input.value }));
    options.onAnswer(relayAnswer(request.id, results), s.formSent);
  });
  return [form];
}

/** The largest unit a time left is said in, with its length in seconds. */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/**
 * How long a Request with `expiresAt` has left ("Expires in 5 minutes."), or that it expired, as of `now`;
 * nothing for a Request without a deadline (semantics 8: past it, the run goes on by itself).
 */
export function deadlineNote(request: PendingRequest<string>, s: ChatStrings, now = Date.now()): HTMLElement[] {
  const at = request.expiresAt === undefined ? Number.NaN : Date.parse(request.expiresAt);
  if (Number.isNaN(at)) return [];
  const left = Math.round((at - now) / 1000);
  const part = left > 0 ? "deadline" : "deadline expired";
  let text = s.expired;
  if (left > 0) {
    const [unit, size] = UNITS.find(([, seconds]) => left >= seconds) ?? UNITS[3]!;
    const when = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" }).format(Math.round(left / size), unit);
    text = s.expiresIn.replace("{time}", when);
  }
  return [h("p", { className: part, part }, h("time", { dateTime: request.expiresAt }, text))];
}

/** Each kind's label and body; a kind not here gets the `other` row: a text field and Skip. */
const KINDS: Record<string, { label: keyof ChatStrings; body: (ctx: Ctx) => HTMLElement[] }> = {
  input: { label: "kindInput", body: (ctx) => [textReply(ctx, [decline(ctx, ctx.s.skip, ctx.s.skipped)])] },
  question: { label: "kindQuestion", body: question },
  approval: { label: "kindApproval", body: approval },
  authorization: { label: "kindAuthorization", body: authorization },
  tool_call: { label: "kindToolCall", body: toolCalls },
};
const OTHER = { label: "kindOther", body: KINDS.input!.body } as const;

/**
 * The agent that asks, on a sub-agent's Request: the last segment of `data.path` (`["root", "planner.1",
 * "booker.1"]` → "booker"), without its instance number; nothing for a Request without a path.
 */
function askingAgent(request: PendingRequest<string>): string | undefined {
  const path = (request.data as { path?: unknown } | undefined)?.path;
  const segments = typeof path === "string" ? path.split("/") : path;
  const leaf = Array.isArray(segments) ? segments.at(-1) : undefined;
  if (typeof leaf !== "string" || !leaf || leaf === "root") return undefined;
  return leaf.replace(/\.\d+$/, "");
}

/**
 * Names the card for assistive technology by its kind, the agent that asks, its prompt and (an approval's)
 * arguments, so two open cards of one kind are two different landmarks.
 */
function nameCard(card: HTMLElement, label: HTMLElement): void {
  const parts = [
    label,
    card.querySelector<HTMLElement>(".agent"),
    card.querySelector<HTMLElement>(".prompt"),
    card.querySelector<HTMLElement>(".args"),
  ];
  const ids = parts.flatMap((part) => {
    if (!part) return [];
    if (!part.id) part.id = uid("tnx-name");
    return [part.id];
  });
  card.setAttribute("aria-labelledby", ids.join(" "));
}

/**
 * The form of one open Request, as an element (`<section class="card" data-kind data-request>`), named for
 * assistive technology by its kind, the agent that asks (a sub-agent's Request, `data.path`) and its prompt
 * (two open approvals are two different landmarks).
 */
export function renderRequest(request: PendingRequest<string>, options: RenderRequestOptions): HTMLElement {
  const s = mergeStrings(options.strings);
  const kind = String(request.kind);
  const row = Object.hasOwn(KINDS, kind) ? KINDS[kind]! : OTHER;
  const card = h("section", {
    className: `card ${kind}`,
    part: `card card-${kind}`,
    "data-kind": kind,
    "data-request": request.id,
  });
  const ctx: Ctx = { request, s, options, card };
  const schema = formSchema(request.data?.schema);
  const body = schema ? [schemaForm(ctx, schema)] : row.body(ctx);
  const label = h("div", { className: "kind", part: "kind", id: uid("tnx-card") }, s[row.label]);
  // a question's prompt is drawn by its groups (the builtin tool's prompt lists the options, the buttons read better)
  const ownPrompt =
    kind === "question" && !schema ? [] : [h("p", { className: "prompt", part: "prompt" }, request.prompt)];
  const agent = askingAgent(request);
  const asker = agent ? [h("p", { className: "agent", part: "agent" }, s.askedBy.replace("{agent}", agent))] : [];
  card.append(label, ...asker, ...ownPrompt, ...deadlineNote(request, s), ...body);
  nameCard(card, label);
  return card;
}
