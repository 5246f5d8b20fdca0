// One racer of the multi-process test: says "ready", waits for "go" on stdin, opens the file, then does
// `rounds` × (read the counter, compare-and-set it to +1, retrying on a lost race) and `rounds` claims
// (create-if-absent of claim:<i>), and prints how many claims it won and how often it retried.
import { sqliteStorage } from "toolnexus";
import { binding } from "./sqlite-binding";

const [file, rounds] = [process.argv[2] ?? "", Number(process.argv[3])];
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
// every racer opens the new file, switches it to WAL and creates the table at the same moment too
const storage = sqliteStorage({ database: binding.open(file) });

let retries = 0;
let claims = 0;
for (let i = 0; i < rounds; i++) {
  for (;;) {
    const seen = await storage.get("counter");
    if (await storage.compareAndSet!("counter", seen, String(Number(seen ?? 0) + 1))) break;
    retries++;
  }
  if (await storage.compareAndSet!(`claim:${i}`, undefined, String(process.pid))) claims++;
}
process.stdout.write(`${JSON.stringify({ claims, retries })}\n`);
