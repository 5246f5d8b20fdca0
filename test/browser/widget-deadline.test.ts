// A question with a deadline (semantics 8) says how long it has left, and a card drawn after the deadline
// says the question expired: renderRequest on its own, in English and in a page's own words.
import { afterEach, describe, expect, it } from "vitest";
import type { PendingRequest } from "toolnexus";
import { renderRequest } from "toolnexus/widget";

afterEach(() => document.body.replaceChildren());

const question = (expiresAt?: string): PendingRequest<string> => ({
  id: "q-1",
  kind: "input",
  prompt: "Which city?",
  ...(expiresAt === undefined ? {} : { expiresAt }),
});
const draw = (request: PendingRequest<string>, strings = {}) =>
  document.body.appendChild(renderRequest(request, { onAnswer: () => {}, strings }));

describe("renderRequest and a Request's deadline", () => {
  it("shows how long the question has left, as a <time> of its deadline", () => {
    const at = new Date(Date.now() + 5 * 60_000 + 30_000).toISOString();
    const note = draw(question(at)).querySelector<HTMLElement>("[part~=deadline]")!;
    expect(note.textContent).toMatch(/^Expires in \d+ minutes\.$/);
    expect(note.querySelector("time")!.dateTime).toBe(at);
  });

  it("a question past its deadline says it expired; the page's own words replace both", () => {
    const past = new Date(Date.now() - 1000).toISOString();
    expect(draw(question(past)).querySelector("[part~=expired]")!.textContent).toBe(
      "This question expired; the conversation goes on without an answer.",
    );
    const later = new Date(Date.now() + 3 * 3_600_000 + 60_000).toISOString();
    const strings = { expiresIn: "Noch {time}", expired: "Abgelaufen" };
    expect(draw(question(later), strings).querySelector("[part~=deadline]")!.textContent).toMatch(/^Noch in 3 hours$/);
    expect(draw(question(past), strings).querySelector("[part~=deadline]")!.textContent).toBe("Abgelaufen");
  });

  it("a question without a deadline has no note", () => {
    expect(draw(question()).querySelector("[part~=deadline]")).toBeNull();
  });
});
