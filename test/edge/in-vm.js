// Scenarios evaluated inside the Edge Runtime's VM (@edge-runtime/vm) after dist/toolnexus.js, which the
// VM holds as the global `toolnexus`. A plain script: the VM has no modules, no process, Buffer or require,
// and refuses eval. Each scenario returns JSON text, so nothing but a string crosses the realm boundary.
/* global toolnexus, EdgeRuntime */
globalThis.scenarios = (() => {
  const {
    answerOutput,
    createClient,
    createResumeToken,
    defineTool,
    eventStreamResponse,
    isToolnexusError,
    memoryStorage,
    pending,
    readEventStream,
  } = toolnexus;
  const SECRET = "edge-runtime-test-secret";
  const codeOf = (error) => (isToolnexusError(error) ? error.code : String(error));

  function setup(baseUrl) {
    const seen = { executions: 0 };
    const approve = defineTool({
      name: "approve",
      description: "Ships once a human approves",
      execute: async (_args, ctx) => {
        if (!ctx?.answer) return pending({ kind: "approval", prompt: "Ship it?" });
        seen.executions++;
        return `approved: ${ctx.answer.data?.output}`;
      },
    });
    const client = createClient({
      style: "openai",
      baseUrl,
      model: "fake",
      apiKey: "sk-edge-test",
      storage: memoryStorage(),
      resumeSecret: SECRET,
      requireResumeToken: true,
    });
    return { client, toolkit: [approve], seen };
  }

  async function collect(response) {
    const events = [];
    for await (const event of readEventStream(response)) events.push(event);
    return events;
  }

  return {
    globals() {
      const refused = (fn) => {
        try {
          fn();
          return "allowed";
        } catch (error) {
          return error.name;
        }
      };
      return JSON.stringify({
        process: typeof process,
        Buffer: typeof Buffer,
        require: typeof require,
        EdgeRuntime: typeof EdgeRuntime,
        // biome-ignore lint/security/noGlobalEval: the test proves the strict EdgeVM refuses eval
        eval: refused(() => eval("1")),
        Function: refused(() => new Function("return 1")),
      });
    },

    /** run → halt → signed resume token → resume → a second answer refused. */
    async haltResume(baseUrl) {
      const { client, toolkit, seen } = setup(baseUrl);
      const halted = await client.run("Ship v42", { toolkit });
      const token = await createResumeToken({ runId: halted.runId, pending: halted.pending }, SECRET);
      let unsigned;
      try {
        await client.resume(halted.runId, answerOutput(halted.pending.id, "yes"), { toolkit });
      } catch (error) {
        unsigned = codeOf(error);
      }
      const done = await client.resume(halted.runId, answerOutput(halted.pending.id, "yes"), { toolkit, token });
      let again;
      try {
        await client.resume(halted.runId, answerOutput(halted.pending.id, "no"), { toolkit, token });
      } catch (error) {
        again = codeOf(error);
      }
      return JSON.stringify({
        halted: halted.status,
        prompt: halted.pending?.prompt,
        unsigned,
        done: done.status,
        text: done.text,
        again,
        executions: seen.executions,
      });
    },

    /** client.stream → eventStreamResponse → readEventStream, halting; then resumeStream the same way. */
    async streamed(baseUrl) {
      const { client, toolkit, seen } = setup(baseUrl);
      const first = await collect(await eventStreamResponse(client.stream("Ship v42", { toolkit })));
      const halted = first.at(-1)?.result;
      const token = await createResumeToken({ runId: halted.runId, pending: halted.pending }, SECRET);
      const response = await eventStreamResponse(
        client.resumeStream(halted.runId, answerOutput(halted.pending.id, "yes"), { toolkit, token }),
      );
      const contentType = response.headers.get("content-type");
      const second = await collect(response);
      return JSON.stringify({
        first: first.map((e) => e.type),
        halted: halted.status,
        contentType,
        second: second.map((e) => e.type),
        text: second.at(-1)?.result?.text,
        executions: seen.executions,
      });
    },
  };
})();
