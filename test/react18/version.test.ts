// This folder's tests run on React 18, not the repository's React 19.
import { version } from "react";
import { expect, it } from "vitest";

it("runs on React 18", () => {
  expect(version).toMatch(/^18\./);
});
