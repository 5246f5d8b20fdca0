// The loop engine, loaded by the client on its first run: a page that only builds a client and its tools
// does not download it until the user actually starts a run.
export { drive } from "../loop";
export { send, shapeBody } from "./call-model";
