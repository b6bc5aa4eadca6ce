import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./postgres";

/**
 * A throwaway NATS server with JetStream for one test file, on loopback at a free port, its
 * storage in a temp dir removed by stop(). Debian's nats-server; tests skip where it is missing.
 */

const BINARY = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"].find((path) => existsSync(path));

export const NATS_UNAVAILABLE: string | undefined = BINARY ? undefined : "no nats-server (apt-get install nats-server)";

export interface ThrowawayNats {
  url: string;
  stop(): Promise<void>;
}

export async function startNats(): Promise<ThrowawayNats> {
  if (!BINARY) throw new Error(`cannot start NATS: ${NATS_UNAVAILABLE}`);
  const dir = mkdtempSync(join(tmpdir(), "parley-nats-"));
  const port = await freePort();
  const server = Bun.spawn([BINARY, "-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir], { stdout: "ignore", stderr: "pipe" });
  const killOnExit = () => server.kill("SIGKILL");
  process.once("exit", killOnExit);
  const url = `nats://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ready = await new Promise<boolean>((resolve) => {
      const socket = Bun.connect({ hostname: "127.0.0.1", port, socket: { open: (s) => (s.end(), resolve(true)), error: () => resolve(false), data() {} } }).catch(() => resolve(false));
      void socket;
    });
    if (ready) break;
    if (Date.now() > deadline) throw new Error("nats-server did not start");
    await Bun.sleep(50);
  }
  return {
    url,
    async stop() {
      process.off("exit", killOnExit);
      server.kill();
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
