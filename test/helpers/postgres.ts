import { SQL } from "bun";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway PostgreSQL for one test file: its own data directory under the system's temp dir,
 * listening on loopback at a free port, trusting every local connection, gone after stop().
 * Uses Debian's server binaries (/usr/lib/postgresql/<version>/bin, the highest version there);
 * never the package's own cluster or service. Tests skip where the binaries are missing:
 *
 *   describe.skipIf(!POSTGRES_AVAILABLE)("...", () => { ... });  // with POSTGRES_UNAVAILABLE printed
 */

const PACKAGE_ROOT = "/usr/lib/postgresql";
const PROGRAMS = ["initdb", "pg_ctl", "postgres"] as const;

/** The bin directory of the highest PostgreSQL version that has every program we run. */
function findBinDir(): string | undefined {
  if (!existsSync(PACKAGE_ROOT)) return undefined;
  const versions = readdirSync(PACKAGE_ROOT)
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(PACKAGE_ROOT, version, "bin")).find((bin) => PROGRAMS.every((program) => existsSync(join(bin, program))));
}

const RUNNING_AS_ROOT = process.getuid?.() === 0;

/** The `postgres` OS user's uid and gid (PostgreSQL refuses to run as root), when there is one. */
function postgresUser(): { uid: number; gid: number } | undefined {
  const uid = Bun.spawnSync(["id", "-u", "postgres"], { stderr: "ignore" });
  const gid = Bun.spawnSync(["id", "-g", "postgres"], { stderr: "ignore" });
  if (uid.exitCode !== 0 || gid.exitCode !== 0) return undefined;
  return { uid: Number(uid.stdout.toString().trim()), gid: Number(gid.stdout.toString().trim()) };
}

const BIN = findBinDir();
const OS_USER = RUNNING_AS_ROOT ? postgresUser() : undefined;
const RUNUSER = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].find((path) => existsSync(path));

/** Why no throwaway PostgreSQL can be started here; undefined when one can. */
export const POSTGRES_UNAVAILABLE: string | undefined = !BIN
  ? `no PostgreSQL server binaries (${PROGRAMS.join(", ")}) under ${PACKAGE_ROOT}/*/bin (apt-get install postgresql)`
  : RUNNING_AS_ROOT && !OS_USER
    ? "running as root, and there is no postgres OS user to run PostgreSQL as"
    : RUNNING_AS_ROOT && !RUNUSER
      ? "running as root, and there is no runuser to run PostgreSQL as the postgres user"
      : undefined;

export const POSTGRES_AVAILABLE = POSTGRES_UNAVAILABLE === undefined;

export interface ThrowawayPostgres {
  /** `postgres://parley@127.0.0.1:PORT/postgres`: superuser `parley`, no password (trust). */
  url: string;
  port: number;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/** A command run as the postgres OS user when we are root (PostgreSQL will not run as root). */
const asPostgres = (command: string[]) => (RUNNING_AS_ROOT ? [RUNUSER!, "-u", "postgres", "--", ...command] : command);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** Keeps the last `limit` characters a stream gives, read as it comes (so the pipe never fills). */
function tail(stream: ReadableStream<Uint8Array>, limit = 16_000): () => string {
  let text = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) text = (text + decoder.decode(chunk, { stream: true })).slice(-limit);
  })().catch(() => {});
  return () => text;
}

/** Starts a throwaway PostgreSQL and waits until it accepts connections. */
export async function startPostgres(settings: Record<string, string> = {}): Promise<ThrowawayPostgres> {
  if (POSTGRES_UNAVAILABLE) throw new Error(`cannot start PostgreSQL: ${POSTGRES_UNAVAILABLE}`);
  const bin = BIN!;
  // Owned by the postgres user when we are root; mkdtemp makes it 0700, as PostgreSQL requires.
  const dir = mkdtempSync(join(tmpdir(), "parley-postgres-"));
  if (OS_USER) chownSync(dir, OS_USER.uid, OS_USER.gid);
  const removeDir = () => rmSync(dir, { recursive: true, force: true });

  // --no-sync and the -c settings below are for tests only: a crash may lose or corrupt this
  // cluster, which is thrown away anyway. C locale and UTF-8: the same on every machine.
  const init = Bun.spawnSync(asPostgres([join(bin, "initdb"), "-D", dir, "--auth=trust", "-U", "parley", "--encoding=UTF8", "--locale=C", "--no-sync"]), {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (init.exitCode !== 0) {
    removeDir();
    throw new Error(`initdb failed (exit ${init.exitCode}):\n${init.stdout.toString()}${init.stderr.toString()}`);
  }

  const port = await freePort();
  const server = Bun.spawn(
    asPostgres([
      join(bin, "postgres"),
      "-D", dir,
      "-k", dir, // the Unix socket in our own directory, not /var/run/postgresql
      "-p", String(port),
      "-c", "listen_addresses=127.0.0.1",
      // Test-only speed: durability is worth nothing for a database thrown away after the test.
      "-c", "fsync=off",
      "-c", "synchronous_commit=off",
      "-c", "full_page_writes=off",
      ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ]),
    { cwd: dir, stdout: "pipe", stderr: "pipe" },
  );
  const output = tail(server.stderr as ReadableStream<Uint8Array>);
  tail(server.stdout as ReadableStream<Uint8Array>);
  // If the test process ends without stop() (a crash, a timeout), do not leave the server running.
  const killOnExit = () => server.kill("SIGKILL");
  process.once("exit", killOnExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", killOnExit);
    if (server.exitCode === null) {
      // pg_ctl signals the postmaster itself (runuser, its parent, would only pass on SIGTERM).
      const ctl = Bun.spawnSync(asPostgres([join(bin, "pg_ctl"), "-D", dir, "-m", "fast", "-w", "-t", "20", "stop"]), { cwd: dir, stdout: "ignore", stderr: "ignore" });
      if (ctl.exitCode !== 0) server.kill("SIGKILL");
      await Promise.race([server.exited, Bun.sleep(20_000)]);
    }
    removeDir();
  };

  const url = `postgres://parley@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`postgres exited (${server.exitCode}) before accepting connections:\n${output()}`);
    }
    const client = new SQL(url, { max: 1, connectionTimeout: 2 });
    try {
      await client`select 1`;
      await client.close();
      break;
    } catch (error) {
      await client.close().catch(() => {});
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`postgres did not accept connections within 30 s (${error}):\n${output()}`);
      }
      await Bun.sleep(50);
    }
  }
  return { url, port, stop };
}
