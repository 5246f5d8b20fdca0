// Fails when the built package contains Node-only code: the core must run unchanged in browsers,
// workerd and Deno. Scans every JavaScript file in dist/.
import { readFileSync, readdirSync } from "node:fs";

const rules = [
  [/\bfrom\s*["']node:|\bimport\s*\(\s*["']node:/, "a node: import"],
  [/\brequire\s*\(/, "require()"],
  [/\bprocess\s*\.\s*(env|versions|nextTick|cwd|exit|argv)\b/, "process"],
  [/\bBuffer\s*\.\s*(from|alloc|isBuffer|concat|byteLength)\b/, "Buffer"],
  [/\bsetImmediate\s*\(/, "setImmediate"],
];
let bad = 0;
const files = readdirSync("dist").filter((f) => f.endsWith(".js"));
if (!files.includes("index.js") || !files.includes("toolnexus.js")) {
  console.error("dist/index.js and dist/toolnexus.js must exist — run npm run build");
  process.exit(1);
}
for (const file of files) {
  const text = readFileSync(`dist/${file}`, "utf8");
  for (const [re, what] of rules) {
    const m = re.exec(text);
    if (m) {
      bad++;
      console.error(`dist/${file}: contains ${what} near …${text.slice(Math.max(0, m.index - 40), m.index + 40)}…`);
    }
  }
}
if (bad) process.exit(1);
console.log(`dist/: ${files.length} files free of Node-only code`);
