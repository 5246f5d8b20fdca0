// A page that imports toolnexus/page, /widget or /react without a bundler (an import map, a CDN) loads each
// file those import, statically or dynamically: none of them may be the core's entry or hold code of the
// loop, the wires, the tools or the client. Each file's source map names the sources it was built from.
// Needs `npm run build` first.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));

/** The sources a page may load: the page side and what it stands on. */
const PAGE_SIDE = /^\.\.\/src\/(page|widget|react|protocol|_internal)\/|^\.\.\/src\/(errors|answer|pending|types)\.ts$/;

/** Every module specifier of an ES module's static imports and re-exports, and of its `import("…")` calls. */
function specifiers(code: string): string[] {
  const found = [
    ...code.matchAll(/\b(?:import|export)\s*(?:[\w*${}\s,]+?\s*from\s*)?["']([^"']+)["']/g),
    ...code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
  ];
  return found.map((m) => m[1]!);
}

/** The dist files `entry` loads (itself included), and the packages it names. */
function reached(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of specifiers(readFileSync(join(dist, file), "utf8"))) {
      if (spec.startsWith("./")) walk(spec.slice(2));
      else packages.add(spec);
    }
  };
  walk(entry);
  return { files, packages };
}

function sourcesOf(file: string): string[] {
  return (JSON.parse(readFileSync(join(dist, `${file}.map`), "utf8")) as { sources: string[] }).sources;
}

describe("the page's files in dist/, loaded without a bundler", () => {
  for (const entry of ["page.js", "widget.js", "react.js"]) {
    it(`${entry} loads no code of the loop, the wires, the tools or the client`, () => {
      const { files, packages } = reached(entry);
      expect([...files].filter((f) => f === "index.js" || f === "toolnexus.js")).toEqual([]);
      const foreign = [...files].flatMap((f) =>
        sourcesOf(f)
          .filter((s) => !PAGE_SIDE.test(s))
          .map((s) => `${f}: ${s}`),
      );
      expect(foreign).toEqual([]);
      expect([...packages].filter((p) => p !== "react")).toEqual([]);
    });
  }

  it("widget.js and react.js take the session from page.js, the one copy", () => {
    const session = [...reached("page.js").files].flatMap(sourcesOf);
    expect(session).toContain("../src/page/run-session.ts");
    for (const entry of ["widget.js", "react.js"]) {
      expect(reached(entry).files).toContain("page.js");
      expect(sourcesOf(entry).filter((s) => s.startsWith("../src/page/"))).toEqual([]);
    }
  });

  it("the walk follows static, re-exported and dynamic imports", () => {
    const code =
      'import { a } from "./a.js";\nexport { b } from "./b.js";\nimport "./c.js";\nconst d = () => import("./d.js");';
    expect(specifiers(code)).toEqual(["./a.js", "./b.js", "./c.js", "./d.js"]);
  });
});
