// The suite's second run: the test files that start servers, each server on a database of its
// own in one throwaway PostgreSQL on loopback (test/helpers/testDatabase.ts). `npm test` runs it
// after the SQLite run; `npm run test:postgres [FILES...]` runs it alone. Where PostgreSQL's
// server binaries are missing it says so and succeeds, as the test/postgres/ files skip.
import { POSTGRES_UNAVAILABLE, startPostgres } from "../test/helpers/postgres";

/**
 * What runs on PostgreSQL: every test of the API, the event queues, the outbox and the official
 * clients. Left out are tests of SQLite itself and of the data dir's database file (backups,
 * upgrades, checkpoints, a full disk, the binary's data dir checks), which PostgreSQL replaces.
 */
const FOLDERS = ["test/api", "test/events", "test/outbox", "test/clients"];

if (POSTGRES_UNAVAILABLE) {
  console.log(`The PostgreSQL run is skipped: ${POSTGRES_UNAVAILABLE}`);
  process.exit(0);
}

const files = process.argv.slice(2);
const postgres = await startPostgres({ max_connections: "400" });
let code = 1;
try {
  console.log(`PostgreSQL run: the servers' databases are on ${postgres.url}`);
  const run = Bun.spawn([process.execPath, "test", "--timeout", "60000", "--parallel=4", ...(files.length > 0 ? files : FOLDERS)], {
    env: { ...process.env, PARLEY_TEST_POSTGRES_URL: postgres.url },
    stdout: "inherit",
    stderr: "inherit",
  });
  code = await run.exited;
} finally {
  await postgres.stop();
}
process.exit(code);
