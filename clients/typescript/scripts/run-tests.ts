/**
 * `npm test`: starts the service once (or takes SERVICE_URL), runs every test file of test/ and examples/ under node's
 * test runner with SERVICE_URL set, and stops the service after, whatever happened.
 *
 * Extra arguments go to `node --test` (for example `npm test -- --test-name-pattern=shuffle`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CLIENT_DIR, startService } from "./service.js";

// The client's tests, then the examples' (examples/game-loop.ts, docs/game-loops.md).
const files = ["test", "examples"].flatMap((folder) =>
  readdirSync(join(CLIENT_DIR, folder))
    .filter((name) => name.endsWith(".test.ts"))
    .sort()
    .map((name) => join(folder, name)),
);

const service = await startService();
let child: ChildProcess | undefined;
let code = 1;
const stopAndExit = async (signal: NodeJS.Signals) => {
  child?.kill(signal);
  await service.stop();
  process.exit(signal === "SIGINT" ? 130 : 143);
};
process.once("SIGINT", stopAndExit).once("SIGTERM", stopAndExit);
try {
  console.log(service.started ? `started the service at ${service.url}` : `using SERVICE_URL=${service.url}`);
  child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-timeout=60000", ...process.argv.slice(2), ...files], {
    cwd: CLIENT_DIR,
    env: { ...process.env, SERVICE_URL: service.url },
    stdio: "inherit",
  });
  const running = child;
  code = await new Promise<number>((ok) => {
    running.once("error", () => ok(1));
    running.once("exit", (status, signal) => ok(status ?? (signal ? 1 : 0)));
  });
} finally {
  await service.stop();
}
process.exit(code);
