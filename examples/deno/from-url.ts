// A Deno script that imports the single-file bundle straight from a CDN URL — no install, no npm.
//   deno run from-url.ts
// (cdn.jsdelivr.net is on Deno's default import allow-list; elsewhere pass --allow-import=<host>.)
import { answerOutput } from "https://cdn.jsdelivr.net/npm/toolnexus/dist/toolnexus.js";

// The Answer a host sends back when a suspended tool asked "Which city?" and the user typed "Chennai".
const answer = answerOutput("sus-1", "Chennai");
console.log(JSON.stringify(answer));
