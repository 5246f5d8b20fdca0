// client.translate: one provider call through the client's hooks, shaping, retries and metrics; nothing
// is executed. Loaded on first use, so a page that never translates never downloads the format conversion.
import { translateBody, translateResponse, type TranslateRequest, type TranslateResult } from "./translate";
import { scrub, send, shapeBody } from "../loop/call-model";
import type { RunContext } from "../loop/context";

export async function translateCall(ctx: RunContext, req: TranslateRequest): Promise<TranslateResult> {
  const { opts, metrics } = ctx;
  const hooked = await opts.hooks?.beforeLLM?.({
    messages: req.messages,
    tools: req.tools ?? [],
    model: opts.model,
    turn: 0,
  });
  const input = hooked ? { ...req, messages: hooked.messages ?? req.messages, tools: hooked.tools ?? req.tools } : req;
  const body = shapeBody(ctx, translateBody(opts.style, opts.model, opts.systemPrompt, input));
  const started = Date.now();
  let out: TranslateResult;
  try {
    const json = await (await send(ctx, ctx.wire.url(opts.baseUrl), body)).json();
    out = translateResponse(opts.style, opts.model, json);
  } catch (error) {
    metrics.record({
      event: "llm",
      model: opts.model,
      status: "error",
      ms: Date.now() - started,
      promptTokens: 0,
      completionTokens: 0,
    });
    throw await scrub(ctx, error);
  }
  metrics.record({
    event: "llm",
    model: opts.model,
    status: "ok",
    ms: Date.now() - started,
    promptTokens: out.usage.promptTokens,
    completionTokens: out.usage.completionTokens,
  });
  await opts.hooks?.afterLLM?.({ response: out.raw, model: opts.model, turn: 0 });
  return out;
}
