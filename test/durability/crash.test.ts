import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DATABASE_FILE } from "../../src/db/client";
import { createChannel, setRealmSetting, uniqueName } from "../helpers/channels";
import { ApiClient } from "../helpers/client";
import { seedOrg, type Org } from "../helpers/seed";
import { Ledger, OP_KINDS } from "./ledger";
import { SeededRandom, crashSeed } from "./random";
import { Verifier, recordUnreadBefore } from "./verify";
import { Workload, type Cast } from "./workload";

/**
 * Crash test (issue 11): people send, edit, delete, react and star concurrently; the server
 * is killed with SIGKILL at a random moment and restarted on the same data dir; then every
 * acknowledged change must be there and every change cut off by the kill applied whole or
 * not at all (ledger.ts has the rules, verify.ts the checks). Several rounds per run.
 *
 * PARLEY_CRASH_ROUNDS (default 4) sets the number of rounds; PARLEY_CRASH_SEED repeats a
 * run's kill delays and each lane's choices (it is printed; the interleaving still varies);
 * PARLEY_CRASH_LANES (default 3) the requests each person keeps in flight.
 */

const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const ROUNDS = positive("PARLEY_CRASH_ROUNDS", 4);
const LANES_PER_WRITER = positive("PARLEY_CRASH_LANES", 3);
/** How long the load runs before the kill, drawn per round. */
const KILL_AFTER_MS = [150, 900] as const;
/** Sends fired together shortly before each kill, and how much earlier. */
const BURST_BEFORE_KILL = 30;
const BURST_LEAD_MS = [0, 10] as const;
/** Messages not in doubt whose search words are checked one by one, per round. */
const SEARCH_SAMPLE = 10;

const seed = crashSeed();
/** Kill delays; lanes and the check's sample draw from sources of their own. */
const schedule = new SeededRandom(seed);
let org: Org;
let cast: Cast;

beforeAll(async () => {
  org = await seedOrg();
  const writers = [org.owner, org.admin, org.moderator, org.member, org.member2, org.bot];
  const channelName = uniqueName("crash");
  const channelId = await createChannel(org, org.owner, { principals: [...writers, org.guest].map((person) => person.id) }, channelName);
  cast = { writers, reader: org.guest, channelName, channelId };
  // A long run must not outlast the default 10 minutes for editing one's messages.
  setRealmSetting(org.server, "message_content_edit_limit_seconds", null);
}, 60_000);
afterAll(async () => {
  await org.server.dispose();
  // seedOrg's data dir is not the server's own temp dir, so dispose() leaves it; it holds
  // thousands of messages after a long run.
  rmSync(org.server.dataDir, { recursive: true, force: true });
});

/**
 * SQLite's own checks of the file a kill left behind, with the full-text index's and the
 * foreign keys': what the API cannot see (a damaged page, an index entry pointing nowhere, a
 * flag row of a deleted message). They run on a copy, so
 * that the restarted server still finds the write-ahead log as the kill left it and recovers
 * it itself.
 */
function integrityProblems(dataDir: string): string[] {
  const copy = mkdtempSync(join(tmpdir(), "parley-crash-copy-"));
  for (const suffix of ["", "-wal", "-shm"]) {
    const file = join(dataDir, DATABASE_FILE + suffix);
    if (existsSync(file)) copyFileSync(file, join(copy, DATABASE_FILE + suffix));
  }
  const sqlite = new Database(join(copy, DATABASE_FILE));
  try {
    const rows = sqlite.query("PRAGMA integrity_check").all() as Array<{ integrity_check: string }>;
    const problems = rows.map((row) => row.integrity_check).filter((text) => text !== "ok");
    // Rows left behind by a half-applied delete (flags, reactions of a message that is gone).
    for (const orphan of sqlite.query("PRAGMA foreign_key_check").all() as Array<{ table: string; rowid: number; parent: string }>) {
      problems.push(`${orphan.table} row ${orphan.rowid} refers to a missing ${orphan.parent} row`);
    }
    try {
      sqlite.run("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)");
    } catch (error) {
      problems.push(`full-text index: ${(error as Error).message}`);
    }
    return problems;
  } finally {
    sqlite.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

/** The server comes back on a new port: everyone's client follows it there. */
function reconnect() {
  const anon = new ApiClient(org.server.url);
  const follow = <P extends { email: string; apiKey: string }>(person: P) => ({ ...person, api: anon.as(person.email, person.apiKey) });
  cast.writers = cast.writers.map(follow);
  cast.reader = follow(cast.reader);
}

test(
  `kill -9 under concurrent sends, edits and deletes: nothing acknowledged is lost, nothing is half applied (${ROUNDS} rounds)`,
  async () => {
    console.log(`crash test: seed ${seed} (PARLEY_CRASH_SEED=${seed} repeats kill delays and choices), ${ROUNDS} rounds, ${cast.writers.length} people x ${LANES_PER_WRITER} lanes`);
    const ledger = new Ledger();
    await recordUnreadBefore(ledger, [...cast.writers, cast.reader]);
    const workload = new Workload(ledger, cast, seed);
    const started = Date.now();
    for (let round = 1; round <= ROUNDS; round++) {
      const before = ledger.totals();
      const killAfterMs = schedule.between(...KILL_AFTER_MS);
      ledger.killing = false;
      const load = workload.runUntilKilled(round, LANES_PER_WRITER);
      await Bun.sleep(killAfterMs);
      const burst = workload.burst(round, BURST_BEFORE_KILL);
      await Bun.sleep(schedule.between(...BURST_LEAD_MS));
      ledger.killing = true;
      await org.server.stop("SIGKILL");
      await Promise.all([load, burst]);
      const damage = integrityProblems(org.server.dataDir);
      const restartStarted = Date.now();
      await org.server.restart();
      const restartMs = Date.now() - restartStarted;
      reconnect();

      const verifier = new Verifier(ledger, cast, new SeededRandom(seed + round));
      const figures = await verifier.run(SEARCH_SAMPLE);
      const after = ledger.totals();
      console.log(
        `round ${round}: killed after ${killAfterMs} ms + a burst; acknowledged ${after.acknowledged - before.acknowledged}, cut off ${after.pending - before.pending} (applied ${after.appliedAfterAll - before.appliedAfterAll}); ` +
          `restart ${restartMs} ms; ${figures.present} messages stored, ${figures.searches} searches, ${figures.unreadChecked} unread checked; problems ${verifier.problems.length}`,
      );
      expect({ seed, round, damage, problems: verifier.problems, surprises: ledger.surprises }).toEqual({ seed, round, damage: [], problems: [], surprises: [] });
    }

    const totals = ledger.totals();
    const perKind = OP_KINDS.map((kind) => `${kind} ${ledger.counts[kind].acknowledged}/${ledger.counts[kind].pending}/${ledger.counts[kind].appliedAfterAll}`).join(", ");
    console.log(`crash test: ${ROUNDS} rounds in ${((Date.now() - started) / 1000).toFixed(1)} s; acknowledged ${totals.acknowledged}, lost 0; cut off ${totals.pending}, applied whole ${totals.appliedAfterAll}; per kind (acknowledged/cut off/applied): ${perKind}`);
    // The kills must have landed on requests in flight, or the test proved little.
    expect(totals.pending).toBeGreaterThanOrEqual(ROUNDS);
    for (const kind of OP_KINDS) expect(ledger.counts[kind].acknowledged).toBeGreaterThan(0);
  },
  ROUNDS * 20_000 + 30_000,
);
