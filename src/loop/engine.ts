// The run tier: everything a run needs past the client — the loop, the model call, the OpenAI wire, and
// the resume path with the record schema — loaded as ONE chunk by the first run, resume or translate.
// esbuild makes one chunk per set of lazily imported modules that reach a file, so a separate resume
// target would split the loop it shares into a third chunk; and the rare extras (translate, the token
// guard) reach these files only through a dynamic import of this module, never statically, for the same
// reason. A plain run pays the resume code (~1.6 KB gzip) to save two more requests on a suspension.
export { drive } from "../loop";
export { scrub, send, shapeBody } from "./call-model";
export { prepareResume } from "./resume";
export { openGroups } from "../run-state";
export { ResumeTokenError } from "../resume-token";
export { openaiWire } from "../wire/openai";
export { validateJsonSchema } from "../json-schema-check";
// Chunk shaping (no code: the client already loaded these): files that several lazy modules import share a
// chunk only when the same lazy modules reach them, so the tiers we own also reach the shared core files the
// others do — here the builtins' declarations (like webfetch), in translate-call.ts the schema (like the JSON
// Schema checker), in conversation.ts parse/schema/resume-token (like the engine). `--chunks` on
// bench/size-loaded.mjs shows the result: the core bundle in six files instead of ten.
import "../builtins/index";
