// The layer rule of src/: every import — static, dynamic, type-only or re-export — points down
//   _internal → types / errors / answer → tools → wire → loop + run-state → client → edge → index,
// storage imports only _internal, types and errors, and nothing in the core imports the subpaths on top
// (mcp, testing, widget, react). The page side (widget, react) imports nothing of the loop, the wires, the tools or the
// client, directly or through what it imports: a page never downloads the agent. The imports are read with
// the TypeScript parser, so none hides in a string or comment.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/** The layer of a file (path relative to src/, with "/" separators); a file may import only from its own or lower layers. */
function layerOf(file: string): number {
  const top = file.split("/")[0]!;
  if (top === "_internal") return 0;
  if (file === "types.ts" || file === "errors.ts" || file === "answer.ts") return 1;
  if (top === "protocol") return 1.2;
  if (top === "storage") return 1.5;
  if (top === "tools") return 2;
  if (top === "wire") return 3;
  if (file === "loop.ts" || top === "loop" || top === "run-state") return 4;
  if (file === "client.ts" || top === "client") return 5;
  if (top === "edge") return 6;
  if (file === "index.ts") return 7;
  if (["mcp", "otel", "testing", "widget", "react", "ag-ui", "ai-sdk"].includes(top)) return 8;
  throw new Error(`src/${file} is in no layer: place it in a folder of LAYOUT's picture`);
}

/** What the page side may not reach, directly or through another import. */
const AGENT = /^(loop|wire|tools|run-state|client|storage|mcp|testing)\/|^(loop|client|index)\.ts$/;

/** Why `from` may not import `to`, or undefined when it may. */
function violation(from: string, to: string): string | undefined {
  if (/^(widget|react)\//.test(from) && AGENT.test(to)) return "the page side imports nothing of the agent";
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
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
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

  it("the widget reaches nothing of the loop, the tools or the client, through any import", () => {
    const reached = new Set<string>();
    const walk = (file: string): void => {
      for (const to of edges.get(file) ?? []) if (!reached.has(to)) reached.add(to), walk(to);
    };
    for (const file of edges.keys()) if (/^(widget|react)\//.test(file)) walk(file);
    // the run session reads its stream with the SSE parser and waits on the abortable timer; both import only
    // _internal, and no provider format comes with them
    const shared = new Set(["wire/sse.ts", "wire/retry-wait.ts"]);
    const agent = [...reached].filter((f) => AGENT.test(f) && !shared.has(f));
    expect(agent).toEqual([]);
    expect(reached).toContain("edge/run-session.ts");
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
    expect(violation("widget/chat-element.ts", "edge/run-session.ts")).toBeUndefined();
    expect(violation("react/use-run-session.ts", "client/options.ts")).toBeDefined();
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
