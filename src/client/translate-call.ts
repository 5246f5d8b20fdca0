// client.translate: one provider call through the client's hooks, shaping, retries and metrics; nothing
// is executed.
import { translateBody, translateResponse, type TranslateRequest, type TranslateResult } from "./translate";
import { recordLlm, replyJson, scrub, send, shapeBody } from "../loop/call-model";
import type { RunContext } from "../loop/context";

export async function translateCall(ctx: RunContext, req: TranslateRequest): Promise<TranslateResult> {
  const { opts } = ctx;
  const hooked = await opts.hooks?.beforeLLM?.({
    messages: req.messages,
    tools: req.tools ?? [],
    model: opts.model,
    turn: 0,
  });
  const input = hooked ? { ...req, messages: hooked.messages ?? req.messages, tools: hooked.tools ?? req.tools } : req;
  const body = shapeBody(ctx, translateBody(ctx.wire, opts.model, opts.systemPrompt, input));
  const started = Date.now();
  let out: TranslateResult;
  try {
    const json = await replyJson(await send(ctx, ctx.wire.url(opts.baseUrl, opts.model, false), body));
    out = translateResponse(ctx.wire, opts.model, json);
  } catch (error) {
    recordLlm(ctx, opts.model, started);
    throw await scrub(ctx, error);
  }
  recordLlm(ctx, opts.model, started, out.usage);
  await opts.hooks?.afterLLM?.({ response: out.raw, model: opts.model, turn: 0 });
  return out;
}
