// The subset of vitest's API the behavioural suite uses, on top of Deno.test, so the same test files
// run unchanged under Deno (against the built single-file bundle). Keep the suite to these matchers.
type Fn = () => unknown | Promise<unknown>;
interface Scope {
  name: string;
  before: Fn[];
  after: Fn[];
  beforeAll: Fn[];
  afterAll: Fn[];
  parent?: Scope;
}

let scope: Scope = { name: "", before: [], after: [], beforeAll: [], afterAll: [] };
const ran = new WeakSet<Scope>();

function chain(s: Scope | undefined): Scope[] {
  const out: Scope[] = [];
  for (let c = s; c; c = c.parent) out.unshift(c);
  return out;
}

export function describe(name: string, fn: () => void): void {
  const parent = scope;
  scope = {
    name: parent.name ? `${parent.name} > ${name}` : name,
    before: [],
    after: [],
    beforeAll: [],
    afterAll: [],
    parent,
  };
  try {
    fn();
  } finally {
    scope = parent;
  }
}

export function it(name: string, fn: Fn, _timeout?: number): void {
  const own = scope;
  Deno.test({
    name: own.name ? `${own.name} > ${name}` : name,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const scopes = chain(own);
      for (const s of scopes) {
        if (!ran.has(s)) {
          ran.add(s);
          for (const h of s.beforeAll) await h();
        }
      }
      for (const s of scopes) for (const h of s.before) await h();
      try {
        await fn();
      } finally {
        for (const s of scopes.reverse()) for (const h of s.after) await h();
      }
    },
  });
}
export const test = it;
export const beforeEach = (fn: Fn) => void scope.before.push(fn);
export const afterEach = (fn: Fn) => void scope.after.push(fn);
export const beforeAll = (fn: Fn) => void scope.beforeAll.push(fn);
export const afterAll = (_fn: Fn) => {}; // Deno tears down the process; nothing to release here

// ---- matching ----

const ASYM = Symbol("asymmetric");
interface Asymmetric {
  [ASYM]: true;
  match(v: unknown): boolean;
  toString(): string;
}
const asym = (desc: string, match: (v: unknown) => boolean): Asymmetric => ({
  [ASYM]: true,
  match,
  toString: () => desc,
});
const isAsym = (v: unknown): v is Asymmetric => typeof v === "object" && v !== null && ASYM in v;

function equals(a: unknown, b: unknown, partial = false): boolean {
  if (isAsym(b)) return b.match(a);
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp && b instanceof RegExp) return String(a) === String(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    return a.every((x, i) => equals(x, b[i], partial));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  if (!partial) {
    const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
    if (ka.length !== kb.length) return false;
  }
  return kb.every((k) => Object.hasOwn(ra, k) && equals(ra[k], rb[k], partial));
}

const show = (v: unknown): string => {
  if (isAsym(v)) return v.toString();
  try {
    return typeof v === "string" ? JSON.stringify(v) : Deno.inspect(v, { depth: 6 });
  } catch {
    return String(v);
  }
};

function throwMatches(err: unknown, expected: unknown): boolean {
  if (expected === undefined) return true;
  const message = err instanceof Error ? err.message : String(err);
  if (typeof expected === "string") return message.includes(expected);
  if (expected instanceof RegExp) return expected.test(message);
  if (typeof expected === "function") return err instanceof (expected as new () => unknown);
  if (typeof expected === "object" && expected !== null) return equals(err, expected, true);
  return false;
}

function getPath(obj: unknown, path: string | string[]): { found: boolean; value: unknown } {
  const parts = Array.isArray(path) ? path : path.replace(/\[(\w+)\]/g, ".$1").split(".");
  let cur: unknown = obj;
  for (const p of parts) {
    if (cur === null || cur === undefined || !(p in Object(cur))) return { found: false, value: undefined };
    cur = (cur as Record<string, unknown>)[p];
  }
  return { found: true, value: cur };
}

type Matchers = Record<string, (...args: any[]) => any>;

function matchers(actual: unknown, negate: boolean): Matchers {
  const check = (pass: boolean, msg: string) => {
    if (pass === negate) throw new Error(`expected ${show(actual)} ${negate ? "not " : ""}${msg}`);
  };
  return {
    toBe: (e: unknown) => check(Object.is(actual, e), `to be ${show(e)}`),
    toEqual: (e: unknown) => check(equals(actual, e), `to equal ${show(e)}`),
    toStrictEqual: (e: unknown) => check(equals(actual, e), `to strictly equal ${show(e)}`),
    toMatchObject: (e: unknown) => check(equals(actual, e, true), `to match object ${show(e)}`),
    toContain: (e: unknown) =>
      check(
        typeof actual === "string"
          ? actual.includes(e as string)
          : Array.isArray(actual) && actual.some((x) => Object.is(x, e)),
        `to contain ${show(e)}`,
      ),
    toContainEqual: (e: unknown) =>
      check(Array.isArray(actual) && actual.some((x) => equals(x, e)), `to contain equal ${show(e)}`),
    toHaveLength: (n: number) => check((actual as { length?: number })?.length === n, `to have length ${n}`),
    toMatch: (e: string | RegExp) =>
      check(
        typeof actual === "string" && (typeof e === "string" ? actual.includes(e) : e.test(actual)),
        `to match ${show(e)}`,
      ),
    toBeInstanceOf: (c: new (...a: never[]) => unknown) => check(actual instanceof c, `to be an instance of ${c.name}`),
    toBeUndefined: () => check(actual === undefined, "to be undefined"),
    toBeDefined: () => check(actual !== undefined, "to be defined"),
    toBeNull: () => check(actual === null, "to be null"),
    toBeTruthy: () => check(!!actual, "to be truthy"),
    toBeFalsy: () => check(!actual, "to be falsy"),
    toBeTypeOf: (t: string) => check(typeof actual === t, `to be of type ${t}`),
    toBeGreaterThan: (n: number) => check((actual as number) > n, `to be > ${n}`),
    toBeGreaterThanOrEqual: (n: number) => check((actual as number) >= n, `to be >= ${n}`),
    toBeLessThan: (n: number) => check((actual as number) < n, `to be < ${n}`),
    toBeLessThanOrEqual: (n: number) => check((actual as number) <= n, `to be <= ${n}`),
    toHaveProperty: (path: string | string[], ...value: unknown[]) => {
      const r = getPath(actual, path);
      check(
        r.found && (value.length === 0 || equals(r.value, value[0])),
        `to have property ${show(path)}${value.length ? ` = ${show(value[0])}` : ""}`,
      );
    },
    toThrow: (e?: unknown) => {
      let threw = false;
      let err: unknown;
      try {
        (actual as () => unknown)();
      } catch (x) {
        threw = true;
        err = x;
      }
      if (negate) {
        if (threw && throwMatches(err, e)) throw new Error(`expected not to throw ${show(e)}, got ${show(err)}`);
      } else if (!threw || !throwMatches(err, e)) {
        throw new Error(threw ? `expected to throw ${show(e)}, got ${show(err)}` : `expected to throw ${show(e)}`);
      }
    },
  };
}

function settle(promise: unknown, wantReject: boolean, negate: boolean): Matchers {
  const out: Matchers = {};
  for (const name of Object.keys(matchers(undefined, false))) {
    out[name] = async (...args: unknown[]) => {
      let value: unknown;
      let rejected = false;
      try {
        value = await promise;
      } catch (e) {
        rejected = true;
        value = e;
      }
      if (rejected !== wantReject) {
        throw new Error(
          wantReject
            ? `expected promise to reject, it resolved to ${show(value)}`
            : `expected promise to resolve, it rejected with ${show(value)}`,
        );
      }
      if (name === "toThrow")
        return matchers(() => {
          throw value;
        }, negate).toThrow!(...args);
      return matchers(value, negate)[name]!(...args);
    };
  }
  return out;
}

export function expect(actual: unknown) {
  const m = matchers(actual, false) as Matchers & {
    not: Matchers;
    rejects: Matchers & { not: Matchers };
    resolves: Matchers & { not: Matchers };
  };
  m.not = matchers(actual, true);
  m.rejects = Object.assign(settle(actual, true, false), { not: settle(actual, true, true) });
  m.resolves = Object.assign(settle(actual, false, false), { not: settle(actual, false, true) });
  return m as any;
}
expect.any = (c: unknown) =>
  asym(`Any<${(c as { name?: string }).name}>`, (v) => {
    if (c === String) return typeof v === "string";
    if (c === Number) return typeof v === "number";
    if (c === Boolean) return typeof v === "boolean";
    if (c === Function) return typeof v === "function";
    return v instanceof (c as new () => unknown);
  });
expect.anything = () => asym("Anything", (v) => v !== null && v !== undefined);
expect.objectContaining = (o: Record<string, unknown>) =>
  asym(`ObjectContaining ${show(o)}`, (v) => equals(v, o, true));
expect.arrayContaining = (a: unknown[]) =>
  asym(`ArrayContaining ${show(a)}`, (v) => Array.isArray(v) && a.every((x) => v.some((y) => equals(y, x))));
expect.stringContaining = (s: string) =>
  asym(`StringContaining ${show(s)}`, (v) => typeof v === "string" && v.includes(s));
expect.stringMatching = (r: RegExp | string) =>
  asym(
    `StringMatching ${show(r)}`,
    (v) => typeof v === "string" && (typeof r === "string" ? v.includes(r) : r.test(v)),
  );
