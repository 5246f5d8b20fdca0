// createUiMessageStreamHandler: what useChat posts in, the UI message stream out — a plain run, approvals
// answered through the re-posted message (checked against the stored run), client-side tools answered with
// an output, the reload route, owners, and bodies it refuses.
import { describe, expect, it } from "vitest";
import { dataFrames, interopWorld } from "../../support/interop";

const user = (text: string) => ({ id: `u-${text}`, role: "user", parts: [{ type: "text", text }] });
const chat = (id: string, ...messages: unknown[]) => ({ id, messages, trigger: "submit-message" });
const types = (chunks: any[]) => chunks.map((c) => (typeof c === "string" ? c : c.type));
const approvalOf = (chunks: any[]) => chunks.find((c) => c.type === "tool-approval-request");
/** The assistant message a page re-posts after addToolApprovalResponse. */
const decided = (toolCallId: string, approvalId: string, approved: boolean, toolName = "deploy") => ({
  id: "a-1",
  role: "assistant",
  parts: [
    { type: "step-start" },
    {
      type: "dynamic-tool",
      toolName,
      toolCallId,
      state: "approval-responded",
      input: {},
      approval: { id: approvalId, approved },
    },
  ],
});

describe("createUiMessageStreamHandler", () => {
  it("a plain run: the v1 header, start, a step around the text, finish, [DONE]", async () => {
    const w = interopWorld();
    const res = await w.postChat(chat("c-plain", user("hello")));
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const chunks = await dataFrames(res);
    expect([...new Set(types(chunks))]).toEqual([
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-end",
      "finish-step",
      "finish",
      "[DONE]",
    ]);
    const text = chunks.filter((c) => c.type === "text-delta").map((c) => c.delta);
    expect(text.join("")).toBe("You said: hello");
  });

  it("an approval: tool-approval-request on its call; approved, the tool runs once and its output comes", async () => {
    const w = interopWorld();
    const halted = await dataFrames(await w.postChat(chat("c-ok", user("deploy"))));
    const request = approvalOf(halted);
    const { approvalId } = request; // read before an asymmetric matcher sees the object (Bun's toMatchObject writes it)
    expect(request).toMatchObject({ toolCallId: "call_deploy", approvalId: expect.stringMatching(/^approval-/) });
    expect(halted.find((c) => c.type === "finish").finishReason).toBe("tool-calls");
    const body = chat("c-ok", user("deploy"), decided("call_deploy", approvalId, true));
    const resumed = await dataFrames(await w.postChat(body));
    expect(resumed.find((c) => c.type === "tool-output-available")).toMatchObject({ toolCallId: "call_deploy" });
    // the tool's result closes the halted turn's step; the model's reply is a step of its own
    const shape = ["start-step", "finish-step", "tool-output-available", "text-start"];
    expect(types(resumed).filter((t) => shape.includes(t))).toEqual([
      "start-step",
      "tool-output-available",
      "finish-step",
      "start-step",
      "text-start",
      "finish-step",
    ]);
    expect(w.ran).toEqual(["deploy:prod"]);
    // the same re-post again finds the chat no longer waiting: it is refused and runs nothing
    expect((await w.postChat(body)).status).toBe(400);
    expect(w.ran).toEqual(["deploy:prod"]);
  });

  it("a denial: tool-output-denied, and the tool never runs", async () => {
    const w = interopWorld();
    const request = approvalOf(await dataFrames(await w.postChat(chat("c-no", user("deploy")))));
    const resumed = await dataFrames(await w.postChat(chat("c-no", decided("call_deploy", request.approvalId, false))));
    expect(resumed.find((c) => c.type === "tool-output-denied")).toEqual({
      type: "tool-output-denied",
      toolCallId: "call_deploy",
    });
    expect(w.ran).toEqual([]);
  });

  it("a forged approval (an id no open request has, or another call's) is refused and consumes nothing", async () => {
    const w = interopWorld();
    const request = approvalOf(await dataFrames(await w.postChat(chat("c-forged", user("deploy")))));
    const unknown = await w.postChat(chat("c-forged", decided("call_deploy", "approval-forged", true)));
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as any).error.code).toBe("invalid_answer");
    const moved = await w.postChat(chat("c-forged", decided("call_other", request.approvalId, true)));
    expect(moved.status).toBe(400);
    expect(w.ran).toEqual([]);
    await dataFrames(await w.postChat(chat("c-forged", decided("call_deploy", request.approvalId, true))));
    expect(w.ran).toEqual(["deploy:prod"]);
  });

  it("a question is a client-side tool call toolnexus_question; its output is the answer", async () => {
    const w = interopWorld();
    const halted = await dataFrames(await w.postChat(chat("c-q", user("which city?"))));
    const asked = halted.find((c) => c.type === "tool-input-available" && c.toolName === "toolnexus_question");
    expect(asked.input).toMatchObject({ prompt: "Which city?", data: { options: ["Oslo", "Lima"] } });
    const answered = {
      id: "a-1",
      role: "assistant",
      parts: [
        {
          type: "dynamic-tool",
          toolName: "toolnexus_question",
          toolCallId: asked.toolCallId,
          state: "output-available",
          input: asked.input,
          output: "Oslo",
        },
      ],
    };
    const resumed = await dataFrames(await w.postChat(chat("c-q", answered)));
    expect(resumed.find((c) => c.type === "tool-output-available" && c.toolCallId === "call_city").output).toBe(
      "city Oslo",
    );
    expect(w.ran).toEqual(["ask_city:Oslo"]);
  });

  it("a request past its expiresAt: the late answer counts as expired and the tool does not get it", async () => {
    const w = interopWorld();
    const halted = await dataFrames(await w.postChat(chat("c-late", user("late"))));
    const asked = halted.find((c) => c.type === "tool-input-available" && c.toolName === "toolnexus_input");
    expect(asked.input.expiresAt).toBe("2001-01-01T00:00:00.000Z");
    const part = {
      type: "dynamic-tool",
      toolName: "toolnexus_input",
      toolCallId: asked.toolCallId,
      state: "output-available",
      input: {},
      output: "now",
    };
    await dataFrames(await w.postChat(chat("c-late", { id: "a", role: "assistant", parts: [part] })));
    expect(w.ran).not.toContain("late:ok");
  });

  it("GET ?chatId= is 204 when nothing streams; another owner's chat is a chat of their own", async () => {
    const w = interopWorld();
    await dataFrames(await w.postChat(chat("c-own", user("hello"))));
    expect((await w.getChat("c-own")).status).toBe(204);
    const request = approvalOf(await dataFrames(await w.postChat(chat("c-own2", user("deploy")))));
    const stranger = await w.postChat(chat("c-own2", decided("call_deploy", request.approvalId, true)), "eve");
    expect(stranger.status).toBe(400);
    expect(w.ran).toEqual([]);
  });

  it("a body too large, too deep, not JSON or without a chat id is a 4xx with the error body", async () => {
    const w = interopWorld({ maxBodyBytes: 4096 });
    expect((await w.postChat(chat("c-big", user("x".repeat(5000))))).status).toBe(413);
    let deep: unknown = "x";
    for (let i = 0; i < 200; i++) deep = { deep };
    const nested = await w.postChat({ ...chat("c-deep", user("hi")), metadata: deep });
    expect(nested.status).toBe(400);
    expect(((await nested.json()) as any).error.code).toBe("bad_request");
    expect((await w.postChat("{not json")).status).toBe(400);
    expect((await w.postChat({ messages: [user("hi")] })).status).toBe(400);
  });
});
