// The exactly-once invariant under crashes, proven at every crash point on this runtime's atomic adapter
// (naturalStorage): the published crash matrix of toolnexus/testing (src/testing/crash-matrix.ts) — a
// resume stopped at its k-th storage operation three ways, or its reader walking away after its k-th event,
// for every k; then a fresh client finishes the run, and no tool ran twice for its answer.
import { crashMatrix } from "toolnexus/testing";
import { describe, it } from "vitest";
import { naturalStorage } from "../../support/natural-storage";

const natural = naturalStorage();
crashMatrix(natural.name, () => natural.make(), { describe, it });
