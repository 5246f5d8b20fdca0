// 1b. What each named user ships, measured from the packed package: `npm pack` of the built package,
// installed into a scratch project the way `npm i toolnexus` installs it, then each case bundled as a
// user's bundler would (esbuild: bundle, minify, ESM, browser platform, tree-shaken) and gzip -9.
// The whole single file is dist/toolnexus.js as it ships. Subpaths a user imports on their own
// (toolnexus/widget, toolnexus/react, toolnexus/otel, toolnexus/mcp) are measured alone, when the package
// has them.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { root } from "./ours.mjs";
import { fmtBytes, table } from "./lib.mjs";

const KiB = 1024;
const ANSWERS = "answerOutput, answerDeclined, answerApproval, answerForm, relayAnswer";

/**
 * DESIGN's budgets (v4), each on what one named user ships. A case with `over` is budgeted as the room it
 * may take over that case (`toolnexus/agents`, `/ag-ui` and `/ai-sdk` over the Worker), and is measured and
 * checked only when the package has its entry. A `ceiling` is a ratchet CI enforces while a budget is
 * missed: lower it whenever a change makes that case smaller; never raise it without saying why in its commit.
 */
export const CASES = [
  {
    id: "page",
    what: "the page: `createRunSession` + the answer helpers",
    code: `export { createRunSession, ${ANSWERS} } from "toolnexus";`,
    budget: 5 * KiB,
  },
  {
    id: "widget",
    what: "the page with the widget element (`toolnexus/widget`)",
    subpath: "./widget",
    code: `export { defineChatElement } from "toolnexus/widget";`,
    budget: 14 * KiB,
  },
  {
    id: "worker",
    what: "a Worker: `createClient` + `createRunHandler` + `durableObjectStorage`",
    code: `export { createClient, createRunHandler, durableObjectStorage } from "toolnexus";`,
    budget: 38 * KiB,
    ceiling: 40_240, // ratchet: this round's features put it over its budget (see the CHANGELOG); lower it as bytes come back
  },
  // a Worker that also serves the front ends users already have: at most the Worker case + 8 KiB each
  ...[
    ["ag-ui", "AG-UI", "createAgUiHandler"],
    ["ai-sdk", "`useChat`", "createUiMessageStreamHandler"],
  ].map(([subpath, who, name]) => ({
    id: `worker-${subpath}`,
    what: `a Worker serving ${who}: the Worker case + \`${name}\` (\`toolnexus/${subpath}\`)`,
    subpath: `./${subpath}`,
    code: `export { createClient, createRunHandler, durableObjectStorage } from "toolnexus"; export { ${name} } from "toolnexus/${subpath}";`,
    over: "worker",
    budget: 8 * KiB,
  })),
  {
    id: "five",
    what: "the five names (`createClient, createToolkit, defineTool, answerOutput, memoryStorage`)",
    code: `export { createClient, createToolkit, defineTool, answerOutput, memoryStorage } from "toolnexus";`,
    budget: 34 * KiB,
    ceiling: 36_610, // ratchet: this round's features put it over its budget (see the CHANGELOG); lower it as bytes come back
  },
  {
    id: "file",
    what: "the whole single file `dist/toolnexus.js`",
    file: "dist/toolnexus.js",
    budget: 52 * KiB,
    ceiling: 54_170, // ratchet: this round's features put it over its budget (see the CHANGELOG); lower it as bytes come back
  },
  {
    id: "worker-agents",
    what: "a Worker with agents: the Worker case + all of `toolnexus/agents`",
    subpath: "./agents",
    code: `export { createClient, createRunHandler, durableObjectStorage } from "toolnexus"; export * from "toolnexus/agents";`,
    over: "worker",
    budget: 8 * KiB,
  },
];

/** Subpaths measured on their own, beside the core budgets (no budget of their own here). */
export const SUBPATHS = [
  {
    id: "page-subpath",
    what: "`toolnexus/page` (`createRunSession` + the answer helpers)",
    subpath: "./page",
    code: `export { createRunSession, ${ANSWERS} } from "toolnexus/page";`,
  },
  {
    id: "react",
    what: "`toolnexus/react` (`useRunSession`, React external)",
    subpath: "./react",
    code: `export { useRunSession } from "toolnexus/react";`,
  },
  {
    id: "otel",
    what: "`toolnexus/otel` (`otelTelemetry`, `@opentelemetry/api` external)",
    subpath: "./otel",
    code: `export { otelTelemetry } from "toolnexus/otel";`,
  },
  {
    id: "mcp",
    what: "`toolnexus/mcp` (`connectMcp`, the MCP SDK external)",
    subpath: "./mcp",
    code: `export { connectMcp } from "toolnexus/mcp";`,
  },
];

const PEERS = ["react", "react-dom", "@opentelemetry/api", "@modelcontextprotocol/client"];

/** Packs the built package and installs the tarball into a scratch project; returns that project's folder. */
export function install() {
  const env = {
    ...process.env,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
  if (!existsSync(join(root, "dist/toolnexus.js")))
    execFileSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "ignore", env });
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-size-"));
  const [info] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], {
      cwd: root,
      env,
      encoding: "utf8",
    }),
  );
  const project = join(dir, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  execFileSync("npm", ["install", "--offline", "--no-package-lock", "--ignore-scripts", join(dir, info.filename)], {
    cwd: project,
    env,
    stdio: "ignore",
  });
  return { dir, project, tarball: info.size, unpacked: info.unpackedSize };
}

/** `code` bundled as a user's bundler would (minify, ESM, browser, tree-shaken; optional peers external). */
export async function bundle(resolveDir, code) {
  const result = await build({
    stdin: { contents: code, resolveDir, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
    legalComments: "none",
    external: PEERS,
  });
  return result.outputFiles[0].contents;
}

async function bundleGzip(project, code) {
  return gzipSync(await bundle(project, code), { level: 9 }).length;
}

/** Measures every case that the package has; a case whose subpath the package lacks is `undefined`. */
export async function measurePacked() {
  const { dir, project, tarball, unpacked } = install();
  try {
    const pkg = JSON.parse(readFileSync(join(project, "node_modules/toolnexus/package.json"), "utf8"));
    const has = (subpath) => !subpath || subpath in pkg.exports;
    const measure = async (c) => {
      if (!has(c.subpath)) return undefined;
      if (c.file) return gzipSync(readFileSync(join(project, "node_modules/toolnexus", c.file)), { level: 9 }).length;
      return bundleGzip(project, c.code);
    };
    const sizes = {};
    for (const c of [...CASES, ...SUBPATHS]) sizes[c.id] = await measure(c);
    return { sizes, tarball, unpacked };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A case's budget in bytes: its own, or (with `over`) the room it has over the case it builds on. */
export function budgetOf(c, sizes) {
  if (!c.over) return c.budget;
  const base = sizes[c.over];
  return base === undefined ? undefined : base + c.budget;
}

/** How a case's budget reads: `38 KiB`, or `Worker + 8 KiB`. */
function budgetText(c) {
  return c.over ? `${c.over} + ${fmtBytes(c.budget)}` : fmtBytes(c.budget);
}

/** A case's check: the budget when it is met, else its ratchet (a case with neither is reported only). */
export function checkOf(c, size, sizes = {}) {
  const budget = budgetOf(c, sizes) ?? c.budget;
  let limit = c.ceiling ?? budget;
  if (size !== undefined && size <= budget) limit = budget;
  const kind =
    limit === budget ? `budget${c.over ? `: ${budgetText(c)}` : ""}` : `ratchet toward the ${fmtBytes(budget)} budget`;
  return {
    name: `size (packed): ${c.what} ≤ ${fmtBytes(limit)} gzip (${kind})${size === undefined ? "" : ` (now ${size.toLocaleString("en")} B)`}`,
    ok: size === undefined ? !!c.subpath : size <= limit,
    detail: size === undefined ? "not measured" : `over by ${(size - limit).toLocaleString("en")} B`,
  };
}

export async function bench() {
  const { sizes, tarball, unpacked } = await measurePacked();
  const row = (c) => {
    const s = sizes[c.id];
    const budget = c.budget === undefined ? "—" : budgetText(c);
    if (s === undefined) return [c.what, "not in the package yet", budget, ""];
    const limit = c.budget === undefined ? undefined : budgetOf(c, sizes);
    let met = "";
    if (limit !== undefined) met = s <= limit ? "met" : "**missed**";
    return [c.what, `**${fmtBytes(s)}**`, budget, met];
  };
  const text = [
    "From the packed package (`npm pack`, installed into a scratch project), each case bundled by esbuild (minify, ESM, browser, tree-shaken; optional peers external), gzip -9:",
    "",
    table(["What a user ships", "Size", "Budget", ""], [...CASES.map(row), ...SUBPATHS.map(row)]),
    "",
    `The tarball: ${fmtBytes(tarball)} packed, ${fmtBytes(unpacked)} unpacked.`,
  ].join("\n");
  const goals = CASES.map((c) => ({
    goal: `${c.what} ≤ ${budgetText(c)} gzip, from the packed package (CI-enforced)`,
    measured: sizes[c.id] === undefined ? "not in the package yet" : fmtBytes(sizes[c.id]),
    met: sizes[c.id] !== undefined && sizes[c.id] <= budgetOf(c, sizes),
  }));
  return {
    id: "size-packed",
    goals,
    title: "1b. Bytes where users pay for them (from the packed package)",
    text,
    results: { ...sizes, tarball, unpacked },
    checks: CASES.map((c) => checkOf(c, sizes[c.id], sizes)),
  };
}
