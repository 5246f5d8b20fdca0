// toolnexus/widget imported where there is no DOM (a server rendering the page, a Worker bundling it by
// mistake): importing it touches no global and throws nothing; only defineChatElement needs a page.
import { describe, expect, it } from "vitest";

describe("toolnexus/widget outside a page", () => {
  it("imports without a DOM and registers nothing", async () => {
    expect(typeof (globalThis as { HTMLElement?: unknown }).HTMLElement).toBe("undefined");
    const widget = await import("toolnexus/widget");
    expect(Object.keys(widget).sort()).toEqual(["DEFAULT_STRINGS", "defineChatElement", "renderRequest"]);
    expect(typeof (globalThis as { customElements?: unknown }).customElements).toBe("undefined");
  });
});
