// One error regime: every public factory and helper refuses a bad option or argument where it is passed,
// with a ConfigError (code "config") that names the option, shows the value it got and never a secret.
import { describe, expect, it } from "vitest";
import {
  answerDeclined,
  answerForm,
  answerOutput,
  ConfigError,
  createClient,
  createInProcessClient,
  createResumeToken,
  createRunHandler,
  createRunSession,
  createToolkit,
  d1Storage,
  defineTool,
  denoKvStorage,
  durableObjectStorage,
  httpTool,
  isToolnexusError,
  kvStorage,
  memoryStorage,
  pending,
  postgresStorage,
  redisStorage,
  relayAnswer,
  relayTool,
} from "toolnexus";

const SECRETS = ["sk-SECRET-key-0123", "Bearer HEADER-SECRET", "SYSTEM-SECRET prompt", "short-SECRET"];
const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m" } as const;
const tool = { name: "t", description: "d", execute: () => "ok" };
const pg = { query: async () => ({ rows: [] }) };

/** The ConfigError `make` throws or rejects with. */
async function configError(make: () => unknown): Promise<ConfigError> {
  let error: unknown;
  try {
    await make();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect(isToolnexusError(error) && error.code).toBe("config");
  return error as ConfigError;
}

/** [what, make, option named, text the message must show] */
const CASES: [string, () => unknown, string, string][] = [
  ["createClient maxTurns", () => createClient({ ...base, maxTurns: -3 }), "maxTurns", "-3"],
  ["createClient style", () => createClient({ ...base, style: "gpt-ish" as never }), "style", '"gpt-ish"'],
  ["createClient timeoutMs", () => createClient({ ...base, timeoutMs: "soon" as never }), "timeoutMs", '"soon"'],
  ["createClient storage", () => createClient({ ...base, storage: 7 as never }), "storage", "7"],
  ["createClient apiKey", () => createClient({ ...base, apiKey: [SECRETS[0]] as never }), "apiKey", "array"],
  ["createClient headers", () => createClient({ ...base, headers: SECRETS[1] as never }), "headers", "string"],
  [
    "createClient systemPrompt",
    () => createClient({ ...base, systemPrompt: [SECRETS[2]] as never }),
    "systemPrompt",
    "array",
  ],
  [
    "createClient resumeSecret",
    () => createClient({ ...base, resumeSecret: SECRETS[3] }),
    "resumeSecret",
    "12 characters",
  ],
  ["createInProcessClient", () => createInProcessClient({ model: "m", generate: "gen" as never }), "generate", '"gen"'],
  ["defineTool execute", () => defineTool({ ...tool, execute: "run" as never }), "execute", '"run"'],
  ["defineTool recovery", () => defineTool({ ...tool, recovery: "always" as never }), "recovery", '"always"'],
  ["defineTool name", () => defineTool({ ...tool, name: 42 as never }), "name", "42"],
  [
    "defineTool inputSchema",
    () => defineTool({ ...tool, inputSchema: { type: "string" } as never }),
    "inputSchema",
    "string",
  ],
  ["relayTool", () => relayTool("", "d"), "name", '""'],
  [
    "httpTool method",
    () => httpTool({ name: "h", description: "d", method: "G E T", url: "https://x.test" }),
    "method",
    '"G E T"',
  ],
  [
    "httpTool headers",
    () => httpTool({ name: "h", description: "d", method: "GET", url: "https://x.test", headers: SECRETS[1] as never }),
    "headers",
    "string",
  ],
  ["createToolkit builtins", () => createToolkit({ builtins: "yes" as never }), "builtins", '"yes"'],
  ["createToolkit tools", () => createToolkit({ tools: 5 as never }), "tools", "5"],
  ["answerOutput output", () => answerOutput("q", 42 as never), "output", "number 42"],
  ["answerOutput id", () => answerOutput(17 as never, "x"), "id", "17"],
  ["answerDeclined reason", () => answerDeclined("q", "nah" as never), "reason", '"nah"'],
  ["answerForm fields", () => answerForm("q", "city=Pune" as never), "fields", '"city=Pune"'],
  ["relayAnswer results", () => relayAnswer("q", "all good" as never), "results", '"all good"'],
  ["pending kind", () => pending({ kind: 3 as never, prompt: "?" }), "kind", "3"],
  [
    "pending expiresAt",
    () => pending({ kind: "input", prompt: "?", expiresAt: "tomorrow" }),
    "expiresAt",
    '"tomorrow"',
  ],
  [
    "createResumeToken secret",
    () => createResumeToken({ runId: "r", pending: { id: "q", kind: "input", prompt: "?" } }, SECRETS[3]!),
    "resumeSecret",
    "12 characters",
  ],
  [
    "createResumeToken ttlSeconds",
    () =>
      createResumeToken({ runId: "r", pending: { id: "q", kind: "input", prompt: "?" } }, "a-secret-of-enough-length", {
        ttlSeconds: -9,
      }),
    "ttlSeconds",
    "-9",
  ],
  ["createRunHandler client", () => createRunHandler({ client: "client" as never }), "client", '"client"'],
  [
    "createRunHandler maxBodyBytes",
    () =>
      createRunHandler({
        client: createInProcessClient({ model: "m", generate: () => ({ content: "" }) }),
        maxBodyBytes: -5,
      }),
    "maxBodyBytes",
    "-5",
  ],
  ["createRunSession endpoint", () => createRunSession({ endpoint: 8080 as never }), "endpoint", "8080"],
  ["kvStorage binding", () => kvStorage({ binding: "RUNS" as never }), "binding", "a string"],
  ["durableObjectStorage", () => durableObjectStorage({ store: 1 } as never), "storage", "{ store }"],
  ["denoKvStorage kv", () => denoKvStorage({ kv: "kv" as never }), "kv", "a string"],
  ["d1Storage database", () => d1Storage({ database: "DB" as never }), "database", "a string"],
  ["postgresStorage client", () => postgresStorage({ client: "pg" as never }), "client", "a string"],
  [
    "postgresStorage table",
    () => postgresStorage({ client: pg as never, table: "runs; drop" }),
    "table",
    '"runs; drop"',
  ],
  ["redisStorage client", () => redisStorage({ client: "redis" as never }), "client", "a string"],
  ["a storage key", () => memoryStorage().get(5 as never), "key", "5"],
  ["a storage ttlSeconds", () => memoryStorage().set("k", "v", { ttlSeconds: -1 }), "ttlSeconds", "-1"],
];

describe("bad options and arguments are ConfigErrors where they are passed", () => {
  for (const [what, make, option, value] of CASES) {
    it(`${what}: names ${option} and shows ${value}`, async () => {
      const error = await configError(make);
      expect(error.option).toBe(option);
      expect(error.message).toMatch(/^toolnexus(\/\w+)?: /);
      expect(error.message).toContain(value);
      for (const secret of SECRETS) expect(error.message).not.toContain(secret);
    });
  }

  it("a long value is cut short in the message", async () => {
    const long = `x${"y".repeat(5000)}`;
    const error = await configError(() => createClient({ ...base, retries: long as never }));
    expect(error.message).toContain(`"xyyy`);
    expect(error.message.length).toBeLessThan(300);
  });

  it("answerOutput keeps the message DESIGN fixes: the kind first, then the value", async () => {
    const error = await configError(() => answerOutput("q", { city: "Pune" } as never));
    expect(error.message).toBe("toolnexus: Answer output must be a string, got object { city }");
  });
});
