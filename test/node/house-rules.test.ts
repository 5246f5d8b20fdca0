// STYLE rule 15, held: no file of src/ is over 400 lines, and no function over 60 — counted in formatted
// source lines from the start of its declaration (for a function held by a `const`, the statement) to its
// closing brace. Read with the TypeScript parser, so every kind counts: declarations, methods, accessors,
// constructors, arrow functions and function expressions.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 60;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The node a function's lines start at: the `const` statement that holds it, else the function itself. */
function declarationOf(node: ts.Node): ts.Node {
  const holder = node.parent;
  if (ts.isVariableDeclaration(holder) && ts.isVariableDeclarationList(holder.parent)) {
    const statement = holder.parent.parent;
    if (ts.isVariableStatement(statement)) return statement;
  }
  return node;
}

/** A function's name as a reader finds it: its own, its `const`'s, or its property's. */
function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name) return named.name.getText();
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const holder = node.parent as { name?: ts.Node };
  return holder?.name ? holder.name.getText() : "(anonymous)";
}

const lineOf = (file: ts.SourceFile, pos: number) => file.getLineAndCharacterOfPosition(pos).line;

/** Every function of `path` over MAX_FUNCTION_LINES, as `file:line name (n lines)`. */
function longFunctions(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const start = lineOf(file, declarationOf(node).getStart(file));
      const lines = lineOf(file, node.getEnd()) - start + 1;
      if (lines > MAX_FUNCTION_LINES)
        found.push(`${relative(src, path)}:${start + 1} ${nameOf(node)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("house rules (STYLE rule 15)", () => {
  const files = filesUnder(src);

  it("reads the sources", () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it(`no file of src/ is over ${MAX_FILE_LINES} lines`, () => {
    const long = files.flatMap((path) => {
      const lines = readFileSync(path, "utf8").replace(/\n$/, "").split("\n").length;
      return lines > MAX_FILE_LINES ? [`${relative(src, path)} (${lines} lines)`] : [];
    });
    expect(long).toEqual([]);
  });

  it(`no function of src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.flatMap(longFunctions)).toEqual([]);
  });
});
