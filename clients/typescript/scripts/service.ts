/**
 * Starts the referee under gunicorn for the tests, and stops it.
 *
 * The service is the repository's own (`gunicorn -c gunicorn.conf.py "service.app:create_app()"`, run from
 * the repository root) on a free port of 127.0.0.1, with 2 workers, no access log, a fresh metrics directory
 * and a fresh sealing key. Environment:
 *   SERVICE_URL        use a service that is already running instead (nothing is started or stopped)
 *   CHKOBBA_GUNICORN   the gunicorn executable (default: <repo>/.venv/bin/gunicorn)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The client's folder (clients/typescript) and the repository root. */
export const CLIENT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const REPO_ROOT = resolve(CLIENT_DIR, "..", "..");

export interface RunningService {
  /** Base URL, without a trailing slash: `http://127.0.0.1:PORT`. */
  url: string;
  /** True when this process started it (false with SERVICE_URL). */
  started: boolean;
  /** Stops the service (SIGTERM, then waits for gunicorn to exit); a no-op with SERVICE_URL. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 25_000; // gunicorn drains within CHKOBBA_GRACEFUL_TIMEOUT (20 s by default)

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.unref();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => ok(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => child.once("exit", () => ok()));
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function startOnce(): Promise<RunningService> {
  const gunicorn = process.env.CHKOBBA_GUNICORN || join(REPO_ROOT, ".venv", "bin", "gunicorn");
  const port = await freePort();
  const metricsDir = mkdtempSync(join(tmpdir(), "chkobba-ts-metrics-"));
  const child = spawn(gunicorn, ["-c", "gunicorn.conf.py", "service.app:create_app()"], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      CHKOBBA_BIND: `127.0.0.1:${port}`,
      CHKOBBA_WORKERS: "2",
      CHKOBBA_ACCESS_LOG: "",
      CHKOBBA_LOG_LEVEL: "warning",
      CHKOBBA_STATE_KEYS: randomBytes(32).toString("base64url"),
      CHKOBBA_EPHEMERAL_KEYS: "1", // the receipt key: made at start, for this one server
      PROMETHEUS_MULTIPROC_DIR: metricsDir,
    },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true, // its own process group, so that a last-resort SIGKILL reaches the workers too
  });
  let log = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    log = (log + chunk).slice(-20_000);
  });
  const spawnError = new Promise<Error>((ok) => child.once("error", ok));
  const url = `http://127.0.0.1:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = new Promise<"late">((ok) => setTimeout(ok, STOP_TIMEOUT_MS, "late").unref());
        if ((await Promise.race([exited(child), timer])) === "late") {
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            /* already gone */
          }
          await exited(child);
        }
      }
      rmSync(metricsDir, { recursive: true, force: true });
    })();
    return stopping;
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const failed = await Promise.race([spawnError, new Promise<undefined>((ok) => setTimeout(ok, 100))]);
    if (failed) {
      await stop();
      throw new Error(`cannot start ${gunicorn}: ${failed.message} (set CHKOBBA_GUNICORN, or run make install)`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw Object.assign(new Error(`gunicorn exited (${child.exitCode ?? child.signalCode}) before serving:\n${log}`), {
        portTaken: /Address already in use/.test(log),
      });
    }
    if (await healthy(url)) return { url, started: true, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`gunicorn did not answer /healthz within ${READY_TIMEOUT_MS} ms:\n${log}`);
    }
  }
}

/** Starts the service (or takes SERVICE_URL) and waits until /healthz answers 200. */
export async function startService(): Promise<RunningService> {
  const given = process.env.SERVICE_URL;
  if (given) {
    const url = given.replace(/\/+$/, "");
    if (!(await healthy(url))) throw new Error(`SERVICE_URL=${given}: GET /healthz does not answer 200`);
    return { url, started: false, stop: async () => {} };
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce();
    } catch (error) {
      // Another process may take the free port between our probe and gunicorn's bind: try another one.
      if (attempt < 3 && (error as { portTaken?: boolean }).portTaken) continue;
      throw error;
    }
  }
}
