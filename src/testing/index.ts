// toolnexus/testing: what it takes to test tools and storage adapters without a model or a network — the
// scripted OpenAI/Anthropic endpoint, the storage contract suite every adapter passes, and the crash matrix
// every atomic adapter keeps exactly-once under.
export { storageContract } from "./storage-contract";
export type { ContractEnv, ContractOptions, ContractTestFunctions } from "./storage-contract";
export { raceResumes, raceSweepers, countingTool } from "./race";
export { crashMatrix, crashingStorage } from "./crash-matrix";
export type { Crash, CrashMatrixOptions, Fault } from "./crash-matrix";
export type { RaceOutcome, SweepOutcome } from "./race";
export { bigValue, ODD_KEYS, ODD_VALUES } from "./values";
export { ContractAssertionError } from "./assert";
export { scripted, toolResultsIn, userTurnsIn } from "./scripted";
export type { ScriptCall, ScriptTurn, Step, Scripted } from "./scripted";
