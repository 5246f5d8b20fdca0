// The MCP client scenarios on a page's main thread (Chromium): `globalThis.mcpSteps(list)` runs the steps;
// runs halt into localStorage, so the page after a reload resumes them.
import { webStorage } from "../../../dist/index.js";
import { runSteps } from "./scenarios.mjs";

globalThis.mcpSteps = (list) => runSteps(list, webStorage({ storage: localStorage, prefix: "mcp:" }));
