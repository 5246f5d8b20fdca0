// toolnexus/react: the page's run session as a React hook. Built on createRunSession alone; React is a peer.
export { useRunSession } from "./use-run-session";
export type { RunSessionHandle, UseRunSessionOptions } from "./use-run-session";
