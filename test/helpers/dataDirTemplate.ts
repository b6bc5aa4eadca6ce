import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { DATABASE_FILE } from "../../src/db/client";
import { ensureDatabaseFor } from "./testDatabase";

/**
 * Prepared data dirs: a state that many test files start from (an initialized organization, or
 * one with the seeded people) is built once, the way the tests built it each time, and each
 * test then starts its server on a copy of its database. Building one takes a `parley init`,
 * a server start and a dozen password hashes; copying it takes a millisecond.
 *
 * A template is kept in the temp dir under a name made from everything that could change what
 * it holds (the server's sources and migrations, the lockfile, these helpers, Bun's version, the
 * PARLEY_* environment), so an edit anywhere there builds a new one and nothing stale is used.
 * The first test process to need one builds it while the others wait; templates nobody used
 * for a day are removed.
 */

const ROOT = join(import.meta.dir, "..", "..");
const PREFIX = "parley-template-";
/** What goes into the template's name, besides the files under these folders. */
const SOURCES = ["src", "migrations", "package-lock.json", "test/helpers/dataDirTemplate.ts", "test/helpers/seed.ts", "test/helpers/server.ts"];
const DATABASE_FILES = [DATABASE_FILE, `${DATABASE_FILE}-wal`];
/** What a template holds besides the data dir's database: what its builder answered. */
const BUILT_FILE = "built.json";
const UNUSED_FOR_MS = 24 * 3600_000;
const BUILD_TIMEOUT_MS = 120_000;

let sourceKey: string | undefined;

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function sourcesKey(): string {
  if (sourceKey) return sourceKey;
  const hash = new Bun.CryptoHasher("sha256");
  hash.update(Bun.version);
  for (const [name, value] of Object.entries(process.env).filter(([name]) => name.startsWith("PARLEY_")).sort()) hash.update(`${name}=${value}\n`);
  for (const file of SOURCES.flatMap((source) => filesUnder(join(ROOT, source)))) {
    hash.update(relative(ROOT, file));
    hash.update(readFileSync(file));
  }
  return (sourceKey = hash.digest("hex").slice(0, 16));
}

/** Whether the process that took the lock has gone without finishing (a process still starting to build has not written its ID yet). */
function abandoned(lock: string): boolean {
  try {
    process.kill(Number(readFileSync(join(lock, "pid"), "utf8")), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Removes templates (and the leftovers of failed builds) that nobody has used for a day. */
function pruneUnused() {
  for (const name of readdirSync(tmpdir()).filter((name) => name.startsWith(PREFIX))) {
    const path = join(tmpdir(), name);
    try {
      if (Date.now() - statSync(path).mtimeMs > UNUSED_FOR_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

/** The template's directory, built now by `build` (into the data dir it is given) unless it already is. */
async function template<T>(name: string, build: (dataDir: string) => Promise<T>): Promise<string> {
  const path = join(tmpdir(), `${PREFIX}${name}-${sourcesKey()}`);
  const lock = `${path}.lock`;
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  while (!existsSync(path)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another process is building it; take over if that process is gone.
      if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`The data dir template ${path} was not built within ${BUILD_TIMEOUT_MS} ms (remove ${lock} if no test runs)`);
      else await Bun.sleep(100);
      continue;
    }
    try {
      writeFileSync(join(lock, "pid"), String(process.pid));
      if (existsSync(path)) break;
      pruneUnused();
      const building = mkdtempSync(`${path}.building-`);
      try {
        const dataDir = join(building, "data");
        mkdirSync(dataDir);
        writeFileSync(join(building, BUILT_FILE), JSON.stringify((await build(dataDir)) ?? null));
        renameSync(building, path);
      } finally {
        rmSync(building, { recursive: true, force: true });
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  const now = new Date();
  utimesSync(path, now, now);
  return path;
}

/**
 * Puts a copy of the template's database into `dataDir` (made if missing), building the
 * template first if no test has yet, and answers what its builder answered when it was built.
 */
export async function copyTemplate<T>(name: string, build: (dataDir: string) => Promise<T>, dataDir: string): Promise<T> {
  const path = await template(name, build);
  mkdirSync(dataDir, { recursive: true });
  for (const file of DATABASE_FILES) if (existsSync(join(path, "data", file))) copyFileSync(join(path, "data", file), join(dataDir, file));
  await ensureDatabaseFor(dataDir, join(path, "data"));
  return JSON.parse(readFileSync(join(path, BUILT_FILE), "utf8")) as T;
}
