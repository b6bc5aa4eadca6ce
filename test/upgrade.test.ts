import { Database } from "bun:sqlite";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RELEASES, buildFixture, buildSchema } from "../scripts/upgrade-fixture";
import pkg from "../package.json";
import { ApiClient } from "./helpers/client";
import { OWNER, login, ok } from "./helpers/seed";
import { TestServer, runParley } from "./helpers/server";

// Issue 17, upgrades: a database as the previous release left it (built from its migrations and
// rows a server of that release wrote) is upgraded at start, after a copy is taken; a failed
// upgrade changes nothing; a database from a newer Parley is refused, naming the version.

setDefaultTimeout(60_000);

const VERSION = `parley-${pkg.version}`;
const PREVIOUS = "0.1.0";
const scratch = mkdtempSync(join(tmpdir(), "parley-upgrade-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let serial = 0;
const fresh = (name: string) => join(scratch, `${serial++}-${name}`);

const migrationTags = (database: string) => {
  const sqlite = new Database(database, { readonly: true });
  try {
    return sqlite.query<{ tag: string }, []>("SELECT tag FROM parley_migrations ORDER BY tag").all().map((row) => row.tag);
  } finally {
    sqlite.close();
  }
};
const currentMigrations = () => readdirSync(join(import.meta.dir, "..", "migrations")).filter((name) => name.endsWith(".sql")).map((name) => name.replace(/\.sql$/, "")).sort();

describe(`upgrading a ${PREVIOUS} database`, () => {
  const dataDir = fresh("previous");
  let server: TestServer;
  afterAll(async () => {
    await server?.dispose();
  });

  test("the fixture really is the previous release's schema, behind this one", () => {
    buildFixture(PREVIOUS, dataDir);
    const tags = migrationTags(join(dataDir, "parley.db"));
    expect(tags.at(-1)).toBe(RELEASES[PREVIOUS]!);
    expect(currentMigrations().length).toBeGreaterThan(tags.length);
  });

  test("starts, upgrades in place after keeping a copy, and serves what the old release stored", async () => {
    server = await TestServer.start({ dataDir });
    const pending = currentMigrations().filter((tag) => tag > RELEASES[PREVIOUS]!);
    expect(server.output).toContain(`Upgraded the database for ${VERSION} (${pending.join(", ")})`);

    // Every migration recorded, the new ones with the version that applied them.
    const sqlite = new Database(join(dataDir, "parley.db"), { readonly: true });
    const rows = sqlite.query<{ tag: string; parley_version: string | null }, []>("SELECT tag, parley_version FROM parley_migrations ORDER BY tag").all();
    sqlite.close();
    expect(rows.map((row) => row.tag)).toEqual(currentMigrations());
    expect(rows.filter((row) => row.parley_version === VERSION).map((row) => row.tag)).toEqual(pending);

    // The copy taken first is the database as the old release left it.
    const copies = readdirSync(join(dataDir, "backups"));
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatch(new RegExp(`^before-upgrade-\\d{4}-\\d{2}-\\d{2}T\\d{6}Z-to-${VERSION.replaceAll(".", "\\.")}\\.db$`));
    expect(migrationTags(join(dataDir, "backups", copies[0]!)).at(-1)).toBe(RELEASES[PREVIOUS]!);

    // People sign in with the passwords they had; history, unread state and uploads are there.
    const anon = new ApiClient(server.url);
    const owner = await login(anon, OWNER.email, "owner-password");
    const mel = await login(anon, "mel@example.com", "Mel-password");
    const history = ok(await owner.api.get("/messages", { anchor: "oldest", num_before: 0, num_after: 1000, narrow: [] }));
    const contents = history.messages.map((message: { content: string }) => message.content).join("\n");
    expect(history.messages.length).toBeGreaterThan(15);
    expect(contents).toContain("fx-up.txt");
    const uploadPath = /href="(\/user_uploads\/[^"]+)"/.exec(contents)![1]!;
    const download = await fetch(new URL(uploadPath, server.url), { headers: { authorization: `Basic ${btoa(`${owner.email}:${owner.apiKey}`)}` } });
    expect(await download.text()).toBe("fixture upload from 0.1.0\n");
    const register = ok(await mel.api.post("/register", { fetch_event_types: ["message", "subscription", "update_message_flags"] }));
    expect(register.subscriptions.map((sub: { name: string }) => sub.name)).toContain("general");
    expect(register.unread_msgs.count).toBeGreaterThan(0);

    // And it works as this version: new messages, and the status that the new table feeds.
    ok(await mel.api.post("/messages", { type: "channel", to: "general", topic: "after the upgrade", content: "all here" }));
    const status = ok(await owner.api.get("/server/status"));
    expect(status.version).toBe(VERSION);
    expect(status.backups).toEqual({ last_success: null, last_failure: null });
  });

  test("a second start has nothing to upgrade and takes no second copy", async () => {
    await server.restart();
    expect(server.output).not.toContain("Upgraded the database");
    expect(readdirSync(join(dataDir, "backups"))).toHaveLength(1);
  });

  test("the copy taken before the upgrade restores, with the uploads taken from the old directory", async () => {
    const [copy] = readdirSync(join(dataDir, "backups"));
    const target = fresh("went-back");
    const restored = runParley(["restore", join(dataDir, "backups", copy!), "--data-dir", target, "--files-from", dataDir]);
    expect(restored.stderr).toBe("");
    expect(restored.exitCode).toBe(0);
    expect(migrationTags(join(target, "parley.db")).at(-1)).toBe(RELEASES[PREVIOUS]!);
    expect(readdirSync(join(target, "files"))).toEqual(readdirSync(join(dataDir, "files")));
    // Without --files-from it says where the uploads are to be had.
    const bare = runParley(["restore", join(dataDir, "backups", copy!), "--data-dir", fresh("bare")]);
    expect(bare.exitCode).toBe(0);
    expect(bare.stdout).toContain("--files-from");
  });
});

describe("an upgrade that cannot finish", () => {
  test("changes nothing, and says so", () => {
    // Two releases behind, with the newest migration's table already there: the first pending
    // migration succeeds, the last fails, and the transaction must take the first back too.
    const migrations = currentMigrations();
    const dataDir = fresh("conflict");
    buildSchema(migrations.at(-3)!, dataDir);
    const sqlite = new Database(join(dataDir, "parley.db"));
    const newest = readFileSync(join(import.meta.dir, "..", "migrations", `${migrations.at(-1)}.sql`), "utf8");
    const table = /CREATE TABLE `(\w+)`/.exec(newest)![1]!;
    sqlite.run(`CREATE TABLE ${table} (x INTEGER)`);
    const schemaBefore = sqlite.query<{ sql: string }, []>("SELECT sql FROM sqlite_schema ORDER BY name").all();
    sqlite.close();

    const result = runParley(["serve", "--data-dir", dataDir, "--port", "0", "--host", "127.0.0.1"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Upgrading the database for ${VERSION} failed at migration ${migrations.at(-1)}`);
    expect(result.stderr).toContain("Nothing was changed");
    expect(result.stderr).not.toContain("unexpected error");
    const after = new Database(join(dataDir, "parley.db"), { readonly: true });
    expect(after.query<{ sql: string }, []>("SELECT sql FROM sqlite_schema ORDER BY name").all()).toEqual(schemaBefore);
    after.close();
    expect(migrationTags(join(dataDir, "parley.db"))).toEqual(migrations.slice(0, -2));
  });
});

describe("a database written by a newer Parley", () => {
  test("is refused at start with the version it needs, and left alone", () => {
    const dataDir = fresh("newer");
    const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Newer Org", "--email", OWNER.email, "--password", OWNER.password]);
    expect(init.exitCode).toBe(0);
    const sqlite = new Database(join(dataDir, "parley.db"));
    sqlite.run("INSERT INTO parley_migrations (tag, applied_at, parley_version) VALUES ('9999_from_the_future', 0, 'parley-9.3.0')");
    sqlite.close();
    const result = runParley(["serve", "--data-dir", dataDir, "--port", "0", "--host", "127.0.0.1"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("This database was written by parley-9.3.0");
    expect(result.stderr).toContain(`which ${VERSION} does not know`);
    expect(result.stderr).toContain("Run parley-9.3.0 or newer");
    expect(existsSync(join(dataDir, "backups"))).toBe(false);
    expect(migrationTags(join(dataDir, "parley.db")).at(-1)).toBe("9999_from_the_future");
  });
});
