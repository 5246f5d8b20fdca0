// The few React APIs react.ts beside it uses, typed structurally so CI can check the example without
// installing React (with React installed, its own types take this file's place).
declare module "react" {
  export function useSyncExternalStore<T>(subscribe: (onChange: () => void) => () => void, getSnapshot: () => T): T;
  export function useState<T>(initial: () => T): [T, (next: T) => void];
  export function useEffect(effect: () => void | (() => void), deps: readonly unknown[]): void;
  export function createElement(type: string, props: Record<string, unknown> | null, ...children: unknown[]): unknown;
}
