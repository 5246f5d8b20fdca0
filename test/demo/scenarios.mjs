// The demo's scenarios, played in real Chromium as a user plays them — question → "Chennai" → answer, reload
// mid-question, approve, decline, two approval cards answered in reverse order, sign-in, the MCP tool's form
// elicitation (its fields, submitted, reloaded while open, declined; nothing private in the page), double
// submit (one tool execution), prompts and model text as text, a reload while the answer streams (it carries
// on, no word twice, the text an uninterrupted run gives), Stop mid-answer, the server stopped mid-stream (the
// error shows, a retry works once it is back), errors shown. Each continues the same conversation in one
// browser context (a user's session): `ctx` is `{ demo, page, pageErrors }`. Saves docs/demo.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { root } from "./launcher.mjs";
import { ASKING } from "./scenarios-asking.mjs";
import { STREAMING } from "./scenarios-streaming.mjs";

export { idle, said, send } from "./steps.mjs";

mkdirSync(join(root, "docs"), { recursive: true });

// Each scenario continues the same conversation in one browser context (a user's session), in this order.
export const SCENARIOS = [...ASKING, ...STREAMING];
