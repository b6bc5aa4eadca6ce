import { join } from "node:path";
import { parleyCommand } from "../test/helpers/server";

/** Plumbing every benchmark shares: a free loopback port and a Parley process on it. */

export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export async function waitUntilAnswering(url: string, attempts = 300) {
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      await fetch(url);
      return;
    } catch {
      await Bun.sleep(100);
    }
  }
  throw new Error(`${url} never answered`);
}

export interface RunningParley {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A Parley process as an operator runs it: its own data dir, the default (info) log level
 * unless told otherwise, and its log going to a file in the data dir rather than through the
 * benchmark process, which would compete for the CPU.
 */
export async function startParley(dataDir: string, options: { logLevel?: string } = {}): Promise<RunningParley> {
  const url = `http://127.0.0.1:${freePort()}`;
  const child = Bun.spawn([...parleyCommand(), "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", new URL(url).port], {
    env: { ...process.env, PARLEY_LOG_LEVEL: options.logLevel ?? "info" },
    stdout: Bun.file(join(dataDir, "parley.log")),
    stderr: "inherit",
  });
  await waitUntilAnswering(`${url}/api/v1/server_settings`);
  return {
    url,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}
