import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL as BunSql } from "bun";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { type Dialect, useDialect } from "../../src/db/dialect";
import { idList, textList } from "../../src/db/sqlLists";
import { POSTGRES_AVAILABLE, POSTGRES_UNAVAILABLE, startPostgres, type ThrowawayPostgres } from "../helpers/postgres";

/**
 * The SQL that db/ writes per dialect (src/db/dialect.ts), run on both databases: each
 * fragment, built as each dialect builds it, must find the same rows in SQLite and in a
 * throwaway PostgreSQL. Every fragment with a PostgreSQL form gets its case here.
 */

if (!POSTGRES_AVAILABLE) console.warn(`sqlFragments.test.ts (postgres): skipped, ${POSTGRES_UNAVAILABLE}`);

const ITEMS = 50_000;

describe.skipIf(!POSTGRES_AVAILABLE)("SQL written per dialect finds the same rows in SQLite and PostgreSQL", () => {
  let postgres: ThrowawayPostgres;
  let pg: BunSql;
  const sqlite = new Database(":memory:");

  beforeAll(async () => {
    postgres = await startPostgres();
    pg = new BunSql(postgres.url);
    await pg`CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL)`;
    await pg`INSERT INTO items SELECT g, 'item-' || g FROM generate_series(1, ${ITEMS}) g`;
    sqlite.run("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
    sqlite.run(`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${ITEMS}) INSERT INTO items SELECT n, 'item-' || n FROM g`);
  });
  afterAll(async () => {
    useDialect("sqlite");
    await pg?.close();
    await postgres?.stop();
    sqlite.close();
  });

  /** `build` run as each dialect, on its database: the rows of each, as plain objects. */
  async function onBoth(build: () => SQL): Promise<Record<Dialect, unknown[]>> {
    useDialect("sqlite");
    const lite = new SQLiteSyncDialect().sqlToQuery(build());
    const liteRows = sqlite.query(lite.sql).all(...(lite.params as never[]));
    useDialect("postgres");
    const post = new PgDialect().sqlToQuery(build());
    useDialect("sqlite");
    const postRows = [...(await pg.unsafe(post.sql, post.params as never[]))];
    // bigint columns come back as strings from PostgreSQL's client: compare as numbers.
    const normal = (rows: unknown[]) => rows.map((row) => Object.fromEntries(Object.entries(row as object).map(([key, value]) => [key, typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value])));
    return { sqlite: normal(liteRows), postgres: normal(postRows) };
  }

  const byIds = (ids: number[]) => () => sql`SELECT id, name FROM items WHERE id IN ${idList(ids)} ORDER BY id`;
  const byNames = (names: string[]) => () => sql`SELECT id FROM items WHERE name IN ${textList(names)} ORDER BY id`;

  test("idList: a few IDs, unknown ones left out", async () => {
    const rows = await onBoth(byIds([3, 1, 2, ITEMS + 7]));
    expect(rows.sqlite).toEqual([{ id: 1, name: "item-1" }, { id: 2, name: "item-2" }, { id: 3, name: "item-3" }]);
    expect(rows.postgres).toEqual(rows.sqlite);
  });

  test("idList: none, and more than either database takes as parameters", async () => {
    const none = await onBoth(byIds([]));
    expect(none).toEqual({ sqlite: [], postgres: [] });
    const all = Array.from({ length: ITEMS }, (_, i) => ITEMS - i);
    const rows = await onBoth(byIds(all));
    expect(rows.sqlite.length).toBe(ITEMS);
    expect(rows.postgres).toEqual(rows.sqlite);
  });

  test("textList: keys by their text", async () => {
    const rows = await onBoth(byNames(["item-9", "item-4", "no such item", "item-40000"]));
    expect(rows.sqlite).toEqual([{ id: 4 }, { id: 9 }, { id: 40_000 }]);
    expect(rows.postgres).toEqual(rows.sqlite);
  });
});
