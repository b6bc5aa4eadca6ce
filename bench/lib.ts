import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { NewChannelSettings } from "../src/access/channelCreation";
import { createChannels } from "../src/actions/channels";
import { addSubscriptions } from "../src/actions/subscriptions";
import { addAccount } from "../src/actions/users";
import { closeDatabase, openDatabase } from "../src/db/client";
import { write } from "../src/db/transaction";
import { findUserByEmail, type User } from "../src/db/users";
import { Role } from "../src/model/roles";
import { OWNER } from "../test/helpers/seed";
import { parleyCommand } from "../test/helpers/server";

/** Plumbing the benchmarks share: a free loopback port, a Parley process on it, an organization. */

const ROOT = join(import.meta.dir, "..");

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
  // PARLEY_BENCH_PROFILE_DIR=DIR writes the server's CPU profile there when it stops.
  const profileDir = process.env.PARLEY_BENCH_PROFILE_DIR;
  const command = parleyCommand();
  if (profileDir) command.splice(1, 0, "--cpu-prof", `--cpu-prof-dir=${profileDir}`);
  const child = Bun.spawn([...command, "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", new URL(url).port], {
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

const PUBLIC: NewChannelSettings = { inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: undefined, messageRetentionDays: null, isDefault: false, groupSettings: {} };

/**
 * Fills an initialized data dir through Parley's own actions: the owner plus members up to
 * `people` accounts, and public channels with these names that everyone is subscribed to.
 * Returns the accounts, owner first.
 */
export function buildOrganization(dataDir: string, people: number, channelNames: string[]): User[] {
  openDatabase(dataDir);
  try {
    return write((tx) => {
      const accounts = [findUserByEmail(tx, OWNER.email)!];
      for (let i = 1; i < people; i++) accounts.push(addAccount(tx, { email: `user${i}@bench.example`, fullName: `User ${i}`, role: Role.MEMBER, passwordHash: null }));
      const channels = createChannels(tx, accounts[0], channelNames.map((name) => ({ name, description: "" })), PUBLIC);
      addSubscriptions(tx, channels, accounts);
      return accounts;
    });
  } finally {
    closeDatabase();
  }
}

/** Compiles the single binary as `npm run build` does (without the ARM one) to `outfile`. */
export function buildParleyBinary(outfile: string): string {
  const result = Bun.spawnSync([process.execPath, "scripts/build.ts", "--outfile", outfile], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`building Parley failed: ${result.stderr.toString()}`);
  return outfile;
}

export interface ResidentMemory {
  /** VmRSS: everything resident, MB. */
  rss: number;
  /** RssAnon: heaps, JIT code. */
  anon: number;
  /** RssFile: pages of the executable and other files it touched. */
  file: number;
  /** VmHWM: the highest VmRSS since start, or since it was reset (resetPeakMemory). */
  peak: number;
}

/** A process's resident memory in MB, from /proc (Linux). */
export function residentMemory(pid: number): ResidentMemory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]) / 1024;
  return { rss: mb("VmRSS"), anon: mb("RssAnon"), file: mb("RssFile"), peak: mb("VmHWM") };
}

/** Starts the process's VmHWM afresh from its current RSS (Linux: 5 > clear_refs). */
export function resetPeakMemory(pid: number) {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}
