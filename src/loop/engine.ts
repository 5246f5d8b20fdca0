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
