// Fails when the built package contains code that cannot run unchanged in browsers, workerd and Deno,
// or types that only compile with one runtime's declarations installed.
//   node scripts/check-dist.mjs [dir]      (dir defaults to dist/; part of `npm run check:package`)
// It parses every dist/*.js and *.d.ts with TypeScript and resolves names in scope, so a string that
// says "process.env", a property called `.process` or valibot's `requirement` key is never flagged,
// while a real reference to a Node global is, however it is spelled (`typeof x<"u"?x:…` included).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
const BUNDLE = "toolnexus.js"; // the single file imported by URL: no imports of anything at all
const BUNDLES = [BUNDLE, "toolnexus-widget.js"]; // the chat element's single file is self-contained too

// Globals that exist only in Node (or only in CommonJS). Reading one in a browser or workerd throws.
const NODE_GLOBALS = {
  process: "process — pass configuration in as an option instead",
  Buffer: "Buffer — use Uint8Array, TextEncoder/TextDecoder or btoa/atob",
  require: "require — the package is ESM only; use import",
  module: "module — CommonJS only; use export",
  exports: "exports — CommonJS only; use export",
  __dirname: "__dirname — Node only",
  __filename: "__filename — Node only",
  setImmediate: "setImmediate — use queueMicrotask or setTimeout",
  clearImmediate: "clearImmediate — use clearTimeout",
  global: "global — use globalThis",
};
// Type names that exist only when one runtime's declarations are installed.
const RUNTIME_TYPES = {
  NodeJS: "@types/node",
  Buffer: "@types/node",
  KVNamespace: "@cloudflare/workers-types",
  DurableObjectState: "@cloudflare/workers-types",
  DurableObjectStorage: "@cloudflare/workers-types",
  Deno: "Deno's lib",
};

/** Every problem in `dir`, as `{ file, line, col, what }`. */
export function checkDist(dir) {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const deps = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
  const names = readdirSync(dir).filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"));
  const paths = names.map((f) => join(dir, f));
  const options = {
    allowJs: true,
    noLib: true,
    noResolve: true,
    types: [],
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
  };
  const program = ts.createProgram(paths, options);
  const checker = program.getTypeChecker();
  const problems = [];
  for (const path of paths) {
    const sf = program.getSourceFile(path);
    const report = (node, what) => {
      const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
      problems.push({ file: relative(process.cwd(), path), line: line + 1, col: character + 1, what });
    };
    const ctx = {
      sf,
      checker,
      report,
      deps,
      bundle: BUNDLES.some((b) => path.endsWith(`/${b}`)),
      types: path.endsWith(".d.ts"),
    };
    if (ctx.types) checkReferences(ctx);
    visit(sf, ctx);
  }
  return problems;
}

function visit(node, ctx) {
  if (ts.isStringLiteral(node) && isModuleSpecifier(node)) checkSpecifier(node, ctx);
  else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    const [arg] = node.arguments;
    if (!arg || !ts.isStringLiteralLike(arg))
      ctx.report(node, "import() of a computed specifier — import a literal path");
  } else if (ts.isIdentifier(node) && isFreeReference(node, ctx)) checkIdentifier(node, ctx);
  else if (
    ts.isPropertyAccessExpression(node) &&
    isGlobalObject(node.expression, ctx) &&
    Object.hasOwn(NODE_GLOBALS, node.name.text)
  ) {
    if (!ts.isTypeOfExpression(node.parent) && !ctx.types) ctx.report(node, NODE_GLOBALS[node.name.text]);
  } else if (ts.isMetaProperty(node) && ["dirname", "filename", "main"].includes(node.parent?.name?.text)) {
    ctx.report(node, `import.meta.${node.parent.name.text} — Node/Deno only`);
  }
  ts.forEachChild(node, (child) => visit(child, ctx));
}

function isModuleSpecifier(node) {
  const p = node.parent;
  if ((ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) && p.moduleSpecifier === node) return true;
  if (ts.isCallExpression(p) && p.expression.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isLiteralTypeNode(p) && ts.isImportTypeNode(p.parent)) return true; // import("x").T in .d.ts
  return ts.isExternalModuleReference(p);
}

function checkSpecifier(node, ctx) {
  const spec = node.text;
  if (spec.startsWith("node:") || builtinModules.includes(spec)) {
    ctx.report(node, `a Node built-in import "${spec}" — the core uses web standards only`);
  } else if (/^(\.{1,2}\/|\/|[a-z][a-z0-9+.-]*:)/i.test(spec)) {
    return; // relative, absolute or a URL
  } else if (ctx.bundle) {
    ctx.report(node, `a bare import "${spec}" — a single file must be self-contained (tsup noExternal)`);
  } else if (!ctx.deps.some((d) => spec === d || spec.startsWith(`${d}/`))) {
    ctx.report(node, `an import of "${spec}", which is not in package.json dependencies`);
  }
}

/** A name read from the enclosing scopes, not a property name, a label or a declaration. */
function isFreeReference(node, { checker, types }) {
  const p = node.parent;
  if (!p) return false;
  if ((ts.isPropertyAccessExpression(p) || ts.isQualifiedName(p)) && (p.name === node || p.right === node))
    return false;
  if (
    (ts.isPropertyAssignment(p) ||
      ts.isMethodDeclaration(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isPropertySignature(p) ||
      ts.isMethodSignature(p) ||
      ts.isGetAccessor(p) ||
      ts.isSetAccessor(p) ||
      ts.isEnumMember(p)) &&
    p.name === node
  )
    return false;
  if (
    ts.isLabeledStatement(p) ||
    ts.isBreakOrContinueStatement(p) ||
    ts.isImportSpecifier(p) ||
    ts.isExportSpecifier(p)
  )
    return false;
  if (ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isNamespaceExport(p)) return false;
  if (ts.isBindingElement(p) && p.propertyName === node) return false;
  if (types && (ts.isTypeAliasDeclaration(p) || ts.isInterfaceDeclaration(p) || ts.isTypeParameterDeclaration(p)))
    return false;
  const symbol = ts.isShorthandPropertyAssignment(p)
    ? checker.getShorthandAssignmentValueSymbol(p)
    : checker.getSymbolAtLocation(node);
  // Declared nowhere in this file: a global. In JS, `x.y = z` makes TypeScript invent a symbol for an
  // undeclared `x` (an "expando" whose declarations are only expressions), and `global` can alias globalThis.
  const declared = symbol?.declarations?.some(
    (d) => !ts.isIdentifier(d) && !ts.isPropertyAccessExpression(d) && !ts.isBinaryExpression(d),
  );
  return !declared || symbol.escapedName === "globalThis";
}

function isGlobalObject(node, ctx) {
  return ts.isIdentifier(node) && ["globalThis", "self", "window"].includes(node.text) && isFreeReference(node, ctx);
}

function checkIdentifier(node, ctx) {
  const name = node.text;
  const p = node.parent;
  if (ctx.types) {
    if (Object.hasOwn(RUNTIME_TYPES, name))
      ctx.report(node, `the type ${name}, which needs ${RUNTIME_TYPES[name]} — declare a structural interface instead`);
    return;
  }
  if (
    (name === "eval" || name === "Function") &&
    (ts.isCallExpression(p) || ts.isNewExpression(p)) &&
    p.expression === node
  ) {
    ctx.report(node, `${name}() code generation — workerd refuses code generation from strings`);
  }
  if (!Object.hasOwn(NODE_GLOBALS, name)) return;
  if (ts.isTypeOfExpression(p)) return; // feature detection cannot throw; using the value is what is flagged
  // ofetch's global-object lookup ends in `return global` after globalThis/self/window: never reached.
  if (name === "global" && !(ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p))) return;
  ctx.report(node, NODE_GLOBALS[name]);
}

function checkReferences({ sf, report }) {
  const refs = [
    ...sf.typeReferenceDirectives.map((r) => ["types", r]),
    ...sf.libReferenceDirectives.map((r) => ["lib", r]),
  ];
  for (const [kind, ref] of refs) {
    report(
      { getStart: () => ref.pos },
      `/// <reference ${kind}="${ref.fileName}" /> — declarations must not pull in a runtime's types`,
    );
  }
}

function main(dir = "dist") {
  const need = ["index.js", "index.d.ts", BUNDLE];
  const missing = need.filter((f) => !existsSync(join(dir, f)));
  if (missing.length) {
    console.error(`${dir}/ lacks ${missing.join(", ")} — run \`npm run build\` first`);
    return 1;
  }
  const problems = checkDist(dir);
  for (const p of problems) console.error(`${p.file}:${p.line}:${p.col}: contains ${p.what}`);
  if (problems.length) {
    console.error(`${problems.length} problem(s): dist/ must run unchanged in browsers, workerd, Deno and Node`);
    return 1;
  }
  const count = readdirSync(dir).filter((f) => f.endsWith(".js") || f.endsWith(".d.ts")).length;
  console.log(`${dir}/: ${count} files free of Node-only code and runtime-specific types`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv[2]);
