import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../helpers/client";
import { POSTGRES_AVAILABLE, POSTGRES_UNAVAILABLE, startPostgres, type ThrowawayPostgres } from "../helpers/postgres";
import { ok, seedOrg, type Org } from "../helpers/seed";
import { runParley, TestServer } from "../helpers/server";

/**
 * `parley migrate-to-postgres`: a SQLite server's data, copied into PostgreSQL, serves the same
 * organization (the same people, keys, messages, edits and reactions), new rows get new IDs,
 * and a target that holds data is refused.
 */

if (!POSTGRES_AVAILABLE) console.warn(`migrateToPostgres.test.ts: skipped, ${POSTGRES_UNAVAILABLE}`);

describe.skipIf(!POSTGRES_AVAILABLE)("parley migrate-to-postgres", () => {
  let postgres: ThrowawayPostgres;
  let org: Org;
  let url: string;
  const sent: number[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    const admin = new SQL(postgres.url);
    await admin`CREATE DATABASE moved`;
    await admin.close();
    url = postgres.url.replace(/\/postgres$/, "/moved");
    org = await seedOrg();
    ok(await org.owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "déjà vu" }]), principals: JSON.stringify([org.owner.id, org.member.id]) }));
    for (let i = 0; i < 30; i++) sent.push(ok(await org.member.api.post("/messages", { type: "stream", to: "déjà vu", topic: `topic ${i % 3}`, content: `message ${i} ✓` })).id);
    ok(await org.member.api.patch(`/messages/${sent[0]}`, { content: "edited ✓" }));
    ok(await org.owner.api.post(`/messages/${sent[1]}/reactions`, { emoji_name: "smile" }));
    ok(await org.member.api.post("/messages", { type: "private", to: JSON.stringify([org.admin.id]), content: "a direct one" }));
    await org.server.stop();
  }, 120_000);

  afterAll(async () => {
    await org?.server.dispose();
    await postgres?.stop();
  });

  test("copies everything, and the organization serves from PostgreSQL as it did from SQLite", async () => {
    const result = runParley(["migrate-to-postgres", "--data-dir", org.server.dataDir, "--database-url", url]);
    expect(result.stderr).toContain("messages: 32 rows");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/every table's row count and SHA-256 checksum match/);
    const server = await TestServer.start({ dataDir: org.server.dataDir, init: false, env: { PARLEY_DATABASE_URL: url } });
    try {
      const member = new ApiClient(server.url).as(org.member.email, org.member.apiKey);
      const page = ok(await member.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: JSON.stringify([{ operator: "channel", operand: "déjà vu" }]) }));
      // The channel's own first message is the notification bot's notice of its creation.
      const mine = page.messages.filter((m: { sender_id: number }) => m.sender_id === org.member.id);
      expect(mine.map((m: { id: number }) => m.id)).toEqual(sent);
      expect(mine[0].content).toContain("edited ✓");
      expect(mine[0].edit_history?.length ?? 0).toBeGreaterThan(0);
      expect(mine[1].reactions.map((r: { emoji_name: string }) => r.emoji_name)).toEqual(["smile"]);
      expect(mine[29].content).toContain("message 29 ✓");
      // New rows get IDs after the copied ones.
      const next = ok(await member.post("/messages", { type: "stream", to: "déjà vu", topic: "after", content: "on PostgreSQL" })).id;
      expect(next).toBeGreaterThan(Math.max(...sent) + 1);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("a database that already holds data is refused, changing nothing", async () => {
    const admin = new SQL(url);
    const before = (await admin`SELECT count(*)::int AS n FROM messages`)[0].n;
    await admin.close();
    const result = runParley(["migrate-to-postgres", "--data-dir", org.server.dataDir, "--database-url", url]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("already holds rows");
    const again = new SQL(url);
    expect((await again`SELECT count(*)::int AS n FROM messages`)[0].n).toBe(before);
    await again.close();
  }, 60_000);

  test("on PostgreSQL, parley backup is pg_dump's dump, and parley restore says how to restore one", async () => {
    const out = mkdtempSync(join(tmpdir(), "parley-pgdump-"));
    try {
      const backup = runParley(["backup", "--out", out, "--data-dir", org.server.dataDir], { env: { PARLEY_DATABASE_URL: url } });
      expect(backup.stderr).toBe("");
      expect(backup.exitCode).toBe(0);
      expect(backup.stdout).toContain("with pg_dump");
      const [file] = readdirSync(out);
      expect(file).toMatch(/^parley-.*\.dump$/);
      // pg_dump's custom format begins with its magic.
      expect(readFileSync(join(out, file)).subarray(0, 5).toString()).toBe("PGDMP");
      const restore = runParley(["restore", join(out, file), "--data-dir", join(out, "new")], { env: { PARLEY_DATABASE_URL: url } });
      expect(restore.exitCode).toBe(1);
      expect(restore.stderr).toContain("pg_restore");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  test("its options are checked", () => {
    expect(runParley(["migrate-to-postgres", "--data-dir", org.server.dataDir]).exitCode).toBe(2);
    expect(runParley(["migrate-to-postgres", "--data-dir", org.server.dataDir, "--database-url", "mysql://x"]).exitCode).toBe(2);
    expect(runParley(["migrate-to-postgres", "--help"]).stdout).toContain("Usage: parley migrate-to-postgres");
  });
});
