// toolnexus/testing: what it takes to test tools and storage adapters without a model or a network — the
// scripted OpenAI/Anthropic endpoint, and the storage contract suite every adapter passes.
export { storageContract } from "./storage-contract";
export type { ContractEnv, ContractOptions, ContractTestFunctions } from "./storage-contract";
export { raceResumes, countingTool } from "./race";
export type { RaceOutcome } from "./race";
export { bigValue, ODD_KEYS, ODD_VALUES } from "./values";
export { ContractAssertionError } from "./assert";
export { scripted, toolResultsIn, userTurnsIn } from "./scripted";
export type { ScriptCall, ScriptTurn, Step, Scripted } from "./scripted";
