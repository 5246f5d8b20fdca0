// Prove a RunStorage with the contract every toolnexus adapter passes — here under node:test; vitest,
// bun:test and Deno's @std/testing/bdd take the same line with their own describe and it:
//   node --test storage-contract.js
import { describe, it } from "node:test";
import { memoryStorage } from "toolnexus"; // your adapter here
import { storageContract } from "toolnexus/testing";

// ttl "clock": the suite passes a fake clock and moves it on; leave ttl out to wait for real expiry
storageContract("memoryStorage", ({ now }) => memoryStorage({ now }), { describe, it, ttl: "clock" });
