// The scripted OpenAI/Anthropic endpoints the suite uses are the published ones (toolnexus/testing).
export { scripted, toolResultsIn, userTurnsIn } from "toolnexus/testing";
export type { ScriptCall, ScriptTurn, Step, Scripted } from "toolnexus/testing";
