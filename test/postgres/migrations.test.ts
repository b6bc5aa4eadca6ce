import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { type Column, getTableName, is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { POSTGRES_SEARCH_OBJECTS } from "../../src/db/messageSearch";
import * as pg from "../../src/db/postgres/tables";
import { POSTGRES_AVAILABLE, POSTGRES_UNAVAILABLE, startPostgres, type ThrowawayPostgres } from "../helpers/postgres";

/**
 * PostgreSQL's migrations (migrations/postgres/, made by drizzle-kit from src/db/postgres/tables.ts)
 * applied in order to an empty throwaway PostgreSQL give exactly the schema tables.ts describes:
 * its tables, columns (type, nullability, identity, default), primary keys, unique constraints,
 * foreign keys and indexes, and nothing else but what PostgreSQL makes itself for those, and the
 * full-text search's index and functions, which a hand-written migration adds
 * (POSTGRES_SEARCH_OBJECTS of db/messageSearch.ts).
 */

if (!POSTGRES_AVAILABLE) console.warn(`migrations.test.ts (postgres): skipped, ${POSTGRES_UNAVAILABLE}`);

const MIGRATIONS = join(import.meta.dir, "..", "..", "migrations", "postgres");
const BREAKPOINT = "--> statement-breakpoint";

const tables = (Object.values(pg) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
const configs = new Map(tables.map((table) => [getTableName(table), getTableConfig(table)]));

/** information_schema's data_type for a pg-core column's SQL type (the same, for the types tables.ts uses). */
const dataTypeOf = (column: Column) => column.getSQLType();

const FK_ACTION: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

const sorted = <T>(list: T[]) => [...list].sort();

describe.skipIf(!POSTGRES_AVAILABLE)("PostgreSQL migrations give the schema of src/db/postgres/tables.ts", () => {
  let server: ThrowawayPostgres | undefined;
  let db: SQL;

  beforeAll(async () => {
    server = await startPostgres();
    db = new SQL(server.url, { max: 1 });
    for (const file of migrationFiles()) {
      const statements = readFileSync(join(MIGRATIONS, file), "utf8")
        .split(BREAKPOINT)
        .map((statement) => statement.trim())
        .filter(Boolean);
      // As drizzle's migrator does: one migration, one transaction.
      await db.begin(async (tx) => {
        for (const statement of statements) await tx.unsafe(statement);
      });
    }
  });

  afterAll(async () => {
    await db?.close();
    await server?.stop();
  });

  function migrationFiles(): string[] {
    return readdirSync(MIGRATIONS)
      .filter((file) => file.endsWith(".sql"))
      .sort();
  }

  test("the .sql files are the journal's migrations, in the journal's order", () => {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as { dialect: string; entries: Array<{ idx: number; tag: string }> };
    expect(journal.dialect).toBe("postgresql");
    expect(migrationFiles()).toEqual(journal.entries.sort((a, b) => a.idx - b.idx).map((entry) => `${entry.tag}.sql`));
    expect(migrationFiles().length).toBeGreaterThan(0);
  });

  test("the cluster's event log is in a schema of its own (db/eventLog.ts), outside the data tables", async () => {
    const rows: Array<{ column_name: string; data_type: string }> = await db`
      SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'parley_cluster' AND table_name = 'event_log' ORDER BY ordinal_position`;
    expect(rows.map((row) => `${row.column_name} ${row.data_type}`)).toEqual(["id bigint", "node text", "invalidates boolean", "batch text", "logged_at bigint"]);
  });

  test("the tables are those of tables.ts, and no others", async () => {
    const rows: Array<{ table_name: string }> = await db`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
    expect(sorted(rows.map((row) => row.table_name))).toEqual(sorted([...configs.keys()]));
    expect(configs.size).toBeGreaterThan(30);
  });

  test("each table's columns, with their types, nullability, identity and defaults", async () => {
    const rows: Array<{ table_name: string; column_name: string; data_type: string; is_nullable: string; is_identity: string; identity_generation: string | null; column_default: string | null }> =
      await db`SELECT table_name, column_name, data_type, is_nullable, is_identity, identity_generation, column_default
               FROM information_schema.columns WHERE table_schema = 'public'`;
    const describeColumn = (table: string, column: string, type: string, nullable: boolean, identity: string | null, hasDefault: boolean) =>
      `${table}.${column}: ${type}${nullable ? "" : " not null"}${identity ? ` identity ${identity}` : ""}${hasDefault ? " with a default" : ""}`;
    const actual = rows.map((row) =>
      describeColumn(row.table_name, row.column_name, row.data_type, row.is_nullable === "YES", row.is_identity === "YES" ? row.identity_generation : null, row.column_default !== null),
    );
    const expected = [...configs].flatMap(([table, config]) =>
      config.columns.map((column) =>
        describeColumn(
          table,
          column.name,
          dataTypeOf(column),
          !column.notNull,
          column.generatedIdentity ? (column.generatedIdentity.type === "byDefault" ? "BY DEFAULT" : "ALWAYS") : null,
          column.default !== undefined,
        ),
      ),
    );
    expect(sorted(actual)).toEqual(sorted(expected));
  });

  test("primary keys, unique constraints and foreign keys", async () => {
    const rows: Array<{ table_name: string; name: string; type: string; columns: string; foreign_table: string | null; foreign_columns: string | null; on_delete: string; on_update: string }> =
      await db`SELECT c.conrelid::regclass::text AS table_name, c.conname AS name, c.contype AS type,
                 (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY k(num, n)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num) AS columns,
                 c.confrelid::regclass::text AS foreign_table,
                 (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY k(num, n)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num) AS foreign_columns,
                 c.confdeltype AS on_delete, c.confupdtype AS on_update
               FROM pg_constraint c JOIN pg_namespace ns ON ns.oid = c.connamespace
               WHERE ns.nspname = 'public' AND c.contype IN ('p', 'u', 'f')`;
    const actual = rows.map((row) =>
      row.type === "p"
        ? `${row.table_name}: primary key (${row.columns})`
        : row.type === "u"
          ? `${row.table_name}: unique ${row.name} (${row.columns})`
          : `${row.table_name}: foreign key (${row.columns}) → ${row.foreign_table}(${row.foreign_columns}) on delete ${FK_ACTION[row.on_delete]} on update ${FK_ACTION[row.on_update]}`,
    );
    const expected = [...configs].flatMap(([table, config]) => {
      const primary = [...config.columns.filter((column) => column.primary).map((column) => column.name), ...config.primaryKeys.flatMap((key) => key.columns.map((column) => column.name))];
      const uniques = [
        ...config.columns.filter((column) => column.isUnique).map((column) => `${table}: unique ${column.uniqueName} (${column.name})`),
        ...config.uniqueConstraints.map((unique) => `${table}: unique ${unique.getName()} (${unique.columns.map((column) => column.name).join(", ")})`),
      ];
      const foreignKeys = config.foreignKeys.map((foreignKey) => {
        const reference = foreignKey.reference();
        return `${table}: foreign key (${reference.columns.map((column) => column.name).join(", ")}) → ${getTableName(reference.foreignTable)}(${reference.foreignColumns.map((column) => column.name).join(", ")}) on delete ${foreignKey.onDelete ?? "no action"} on update ${foreignKey.onUpdate ?? "no action"}`;
      });
      return [...(primary.length > 0 ? [`${table}: primary key (${primary.join(", ")})`] : []), ...uniques, ...foreignKeys];
    });
    expect(sorted(actual)).toEqual(sorted(expected));
  });

  test("the indexes are those of tables.ts and the search's, plus those PostgreSQL makes for primary keys and unique constraints", async () => {
    const rows: Array<{ table_name: string; name: string; is_unique: boolean; columns: string; predicate: string | null; constraint_type: string | null }> =
      await db`SELECT t.relname AS table_name, i.relname AS name, x.indisunique AS is_unique,
                 (SELECT string_agg(coalesce(a.attname, '(expression)'), ', ' ORDER BY k.n) FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(num, n)
                    LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.num) AS columns,
                 pg_get_expr(x.indpred, x.indrelid) AS predicate,
                 (SELECT c.contype FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.contype IN ('p', 'u')) AS constraint_type
               FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
               JOIN pg_namespace ns ON ns.oid = t.relnamespace WHERE ns.nspname = 'public'`;
    // Those behind a constraint: the test above checks the constraints themselves.
    const made = rows.filter((row) => row.constraint_type !== null);
    expect(made.every((row) => row.is_unique)).toBe(true);
    const declared = rows
      .filter((row) => row.constraint_type === null)
      .map((row) => `${row.table_name}: ${row.is_unique ? "unique index" : "index"} ${row.name} (${row.columns})${row.predicate ? " partial" : ""}`);
    const expected = [...configs].flatMap(([table, config]) =>
      config.indexes.map(({ config: index }) => {
        // Partial or not (the parity test compares the WHERE with SQLite's; none has one yet).
        const partial = index.where ? " partial" : "";
        return `${table}: ${index.unique ? "unique index" : "index"} ${index.name} (${index.columns.map((column) => ("name" in column ? column.name : "(expression)")).join(", ")})${partial}`;
      }),
    );
    // The search's GIN index, over an expression of the message's topic, content and recipient.
    const search = POSTGRES_SEARCH_OBJECTS.indexes.map(({ table, name }) => `${table}: index ${name} ((expression))`);
    expect(sorted(declared)).toEqual(sorted([...expected, ...search]));
    // Each constraint has its own index, and no other index is unaccounted for.
    const constraintCount = [...configs.values()].reduce(
      (sum, config) =>
        sum + (config.columns.some((column) => column.primary) || config.primaryKeys.length > 0 ? 1 : 0) + config.columns.filter((column) => column.isUnique).length + config.uniqueConstraints.length,
      0,
    );
    expect(made.length).toBe(constraintCount);
  });

  test("the search's objects are its hand-written migration's, not the drizzle schema's; there are no other functions", async () => {
    const schemaIndexes = [...configs.values()].flatMap((config) => config.indexes.map(({ config: index }) => index.name));
    expect(POSTGRES_SEARCH_OBJECTS.indexes.filter(({ name }) => schemaIndexes.includes(name))).toEqual([]);
    const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as { entries: Array<{ tag: string }> };
    const text = readFileSync(join(MIGRATIONS, `${journal.entries.find((entry) => entry.tag.endsWith("_messages_search"))!.tag}.sql`), "utf8");
    for (const { table, name } of POSTGRES_SEARCH_OBJECTS.indexes) expect(text).toMatch(new RegExp(`CREATE INDEX ${name} ON ${table} USING gin`));
    for (const name of POSTGRES_SEARCH_OBJECTS.functions) expect(text).toContain(`CREATE FUNCTION ${name}(`);
    const rows: Array<{ name: string; volatility: string }> = await db`
      SELECT p.proname AS name, p.provolatile AS volatility FROM pg_proc p JOIN pg_namespace ns ON ns.oid = p.pronamespace WHERE ns.nspname = 'public'`;
    expect(sorted(rows.map((row) => row.name))).toEqual(sorted([...POSTGRES_SEARCH_OBJECTS.functions]));
    // An index may only be over immutable functions.
    expect(rows.filter((row) => row.volatility !== "i")).toEqual([]);
  });

  test("an identity key: an insert without an ID gets the next one, an insert with an ID keeps it", async () => {
    const [user] = await db`
      INSERT INTO users (email, full_name, role, api_key, date_joined, settings)
      VALUES ('iago@example.com', 'Iago', 400, 'key', 1700000000, '{}'::jsonb) RETURNING id`;
    const [recipient] = await db`INSERT INTO recipients (type, dm_key) VALUES (1, ${String(user.id)}) RETURNING id`;
    const send = async (id?: number) => {
      const [row] = id === undefined
        ? await db`INSERT INTO messages (recipient_id, sender_id, content, rendered_content, date_sent)
                   VALUES (${recipient.id}, ${user.id}, 'hello', '<p>hello</p>', 4102444800) RETURNING id, client, is_me_message, date_sent`
        : await db`INSERT INTO messages (id, recipient_id, sender_id, content, rendered_content, date_sent)
                   VALUES (${id}, ${recipient.id}, ${user.id}, 'hello', '<p>hello</p>', 4102444800) RETURNING id, client, is_me_message, date_sent`;
      return { ...row, id: Number(row.id), date_sent: Number(row.date_sent) };
    };
    const first = await send();
    expect(first.id).toBe(1);
    // Defaults came across, and a date past 2038 fits (bigint).
    expect(first).toMatchObject({ client: "API", is_me_message: false, date_sent: 4102444800 });
    expect((await send(5_000_000_000)).id).toBe(5_000_000_000);
    // An explicit ID does not move the sequence on (unlike SQLite's AUTOINCREMENT): whoever
    // inserts explicit IDs sets the sequence afterwards, as tables.ts's header says.
    expect((await send()).id).toBe(2);
  });
});
