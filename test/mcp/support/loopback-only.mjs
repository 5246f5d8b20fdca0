// Preloaded (`node --import`) into servers that listen on every interface (server-everything, the conformance
// suite's mock servers): every TCP listen is bound to 127.0.0.1, whatever host it asked for.
import net from "node:net";

const LOOPBACK = "127.0.0.1";
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first] = args;
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    if (typeof args[1] === "string") args[1] = LOOPBACK;
    else args.splice(1, 0, LOOPBACK);
  } else if (first === undefined || typeof first === "function") {
    args.unshift(0, LOOPBACK);
  } else if (
    typeof first === "object" &&
    first !== null &&
    first.path === undefined &&
    first.fd === undefined &&
    !(first instanceof net.Server) &&
    !("_handle" in first)
  ) {
    args[0] = { ...first, host: LOOPBACK };
  }
  return listen.apply(this, args);
};
