// The layer rule of src/ (LAYOUT.md): every import — static, dynamic, type-only or re-export — points down
//   _internal → types / errors / answer / pending / answer-parse → protocol → tools → wire → loop + run-state
//   → client → agents → edge → index,
// storage imports only _internal, types and errors, and nothing in the core imports the subpaths on top (mcp,
// otel, testing). The page side — page, and widget and react on it — imports only protocol and what is below
// it, with no exception: a page never downloads the agent, nor the server. The imports are read with the
// TypeScript parser, so none hides in a string or comment.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/** The files of the contracts every layer shares, just above _internal. */
const CONTRACTS = new Set(["types.ts", "errors.ts", "answer.ts", "pending.ts", "answer-parse.ts"]);

/** The layer of a file (path relative to src/, with "/" separators); a file may import only from its own or lower layers. */
function layerOf(file: string): number {
  const top = file.split("/")[0]!;
  if (top === "_internal") return 0;
  if (CONTRACTS.has(file)) return 1;
  if (top === "protocol") return 2;
  // the page side sits on the protocol: below it is all a page may import
  if (top === "page") return 2.1;
  if (top === "widget" || top === "react") return 2.2;
  if (top === "storage") return 2.5;
  if (top === "tools") return 3;
  if (top === "wire") return 4;
  if (file === "loop.ts" || top === "loop" || top === "run-state") return 5;
  if (file === "client.ts" || top === "client") return 6;
  if (top === "agents") return 7;
  if (top === "edge") return 8;
  if (file === "index.ts") return 9;
  if (["mcp", "otel", "testing", "ag-ui", "ai-sdk"].includes(top)) return 10;
  throw new Error(`src/${file} is in no layer: place it in a folder of LAYOUT's picture`);
}

const PAGE_SIDE = /^(page|widget|react)\//;

/** What the page side may not reach, directly or through another import. */
const AGENT = /^(loop|wire|tools|run-state|client|agents|edge|storage|mcp|otel|testing)\/|^(loop|client|index)\.ts$/;

/** Why `from` may not import `to`, or undefined when it may. */
function violation(from: string, to: string): string | undefined {
  if (PAGE_SIDE.test(from) && AGENT.test(to)) return "the page side imports only protocol and what is below it";
  // widget and react are subpaths of their own: the page session and the core never import them
  if (/^(widget|react)\//.test(to) && !PAGE_SIDE.test(from) && from !== "index.ts")
    return "nothing below widget and react imports them";
  if (/^(widget|react)\//.test(to) && from.startsWith("page/")) return "the page session does not import its views";
  if (
    from.startsWith("storage/") &&
    !(to.startsWith("storage/") || to.startsWith("_internal/") || to === "types.ts" || to === "errors.ts")
  ) {
    return "storage may import only _internal, types and errors";
  }
  if (layerOf(to) > layerOf(from)) return "it points up the layers";
  return undefined;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return sources(join(dir, e.name));
    return e.name.endsWith(".ts") ? [join(dir, e.name)] : [];
  });
}

/** Every module specifier a file names: import/export declarations, `import("…")`, `typeof import("…")`. */
function specifiers(code: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      out.push(node.moduleSpecifier.text);
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      out.push(node.arguments[0].text);
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      out.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile("x.ts", code, ts.ScriptTarget.ES2022, true));
  return out;
}

function resolveLocal(from: string, spec: string, files: Set<string>): string | undefined {
  const base = join(dirname(from), spec).replace(/\\/g, "/");
  return [base, `${base}.ts`, `${base}/index.ts`].find((c) => files.has(c));
}

function graph(): Map<string, string[]> {
  const files = new Set(sources(src).map((f) => relative(src, f).replace(/\\/g, "/")));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(readFileSync(join(src, file), "utf8"))
      .filter((s) => s.startsWith("."))
      .map((s) => resolveLocal(file, s, files) ?? `unresolved:${s}`);
    edges.set(file, targets);
  }
  return edges;
}

function cycles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const walk = (file: string): void => {
    state.set(file, "open");
    stack.push(file);
    for (const to of edges.get(file) ?? []) {
      if (state.get(to) === "open") found.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) walk(to);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of edges.keys()) if (!state.has(file)) walk(file);
  return found;
}

describe("the layers of src/", () => {
  const edges = graph();

  it("every import resolves to a file in src/ or a package", () => {
    const unresolved = [...edges].flatMap(([from, tos]) =>
      tos.filter((t) => t.startsWith("unresolved:")).map((t) => `${from} → ${t}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("no import points up the layers", () => {
    const bad = [...edges].flatMap(([from, tos]) =>
      tos.flatMap((to) => (violation(from, to) ? [`${from} → ${to}: ${violation(from, to)}`] : [])),
    );
    expect(bad).toEqual([]);
  });

  it("the page side reaches nothing of the agent nor the server, through any import", () => {
    const reached = new Set<string>();
    const walk = (file: string): void => {
      for (const to of edges.get(file) ?? []) {
        if (reached.has(to)) continue;
        reached.add(to);
        walk(to);
      }
    };
    for (const file of edges.keys()) if (PAGE_SIDE.test(file)) walk(file);
    expect([...reached].filter((f) => AGENT.test(f))).toEqual([]);
    expect(reached).toContain("page/run-session.ts");
    expect(reached).toContain("protocol/error-body.ts");
  });

  it("no imports form a cycle", () => {
    expect(cycles(edges).map((c) => c.join(" → "))).toEqual([]);
  });

  it("the rule itself refuses what it should (checked on made-up edges)", () => {
    expect(violation("_internal/json.ts", "errors.ts")).toBeDefined();
    expect(violation("wire/openai.ts", "loop/context.ts")).toBeDefined();
    expect(violation("storage/kv.ts", "answer.ts")).toBeDefined();
    expect(violation("client.ts", "mcp/index.ts")).toBeDefined();
    expect(violation("widget/chat-element.ts", "client/options.ts")).toBeDefined();
    expect(violation("widget/chat-element.ts", "index.ts")).toBeDefined();
    expect(violation("widget/chat-element.ts", "page/run-session.ts")).toBeUndefined();
    expect(violation("page/run-session.ts", "edge/run-handler.ts")).toBeDefined();
    expect(violation("react/use-run-session.ts", "client/options.ts")).toBeDefined();
    expect(violation("page/read-events.ts", "wire/common.ts")).toBeDefined();
    expect(violation("page/stream.ts", "storage/memory.ts")).toBeDefined();
    expect(violation("page/stream.ts", "protocol/headers.ts")).toBeUndefined();
    expect(violation("protocol/requests.ts", "page/state.ts")).toBeDefined();
    expect(violation("edge/run-handler.ts", "protocol/requests.ts")).toBeUndefined();
    expect(violation("client/runs.ts", "widget/dom.ts")).toBeDefined();
    expect(violation("loop/halt.ts", "run-state/record.ts")).toBeUndefined();
    expect(
      cycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["a.ts"]],
        ]),
      ),
    ).toHaveLength(1);
    expect(
      specifiers(
        'import type { X } from "./a"; export * from "./b"; const m = () => import("./c"); type T = typeof import("./d");',
      ),
    ).toEqual(["./a", "./b", "./c", "./d"]);
  });
});
