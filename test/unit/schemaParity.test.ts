import { describe, expect, test } from "bun:test";
import { type Column, getTableColumns, getTableName, is, SQL } from "drizzle-orm";
import { bigint, getTableConfig as pgTableConfig, index, PgDialect, pgTable, PgTable, text as pgText } from "drizzle-orm/pg-core";
import { integer, getTableConfig as sqliteTableConfig, SQLiteSyncDialect, sqliteTable, SQLiteTable } from "drizzle-orm/sqlite-core";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as pg from "../../src/db/postgres/tables";
import * as sqlite from "../../src/db/schema";

/**
 * The PostgreSQL schema (src/db/postgres/tables.ts) against the SQLite one (src/db/schema.ts), as
 * drizzle sees them: the same tables under the same export names, and per table the same columns
 * (mapped types, nullability, defaults, generated keys, property names), primary key, foreign
 * keys, unique constraints and indexes. Every difference is reported, naming table and column.
 */

type AnyTable = SQLiteTable | PgTable;

/**
 * The one type mapping (tables.ts's header): the pg-core column a SQLite column becomes, as its
 * SQL type and drizzle's column kind (`PgBigInt53` is bigint in number mode). Anything else has
 * no mapping yet: the table and column are named so someone decides.
 */
function pgTypeFor(column: Column): { sqlType: string; columnType: string } | undefined {
  switch (column.columnType) {
    case "SQLiteInteger":
      return { sqlType: "bigint", columnType: "PgBigInt53" };
    case "SQLiteBoolean":
      return { sqlType: "boolean", columnType: "PgBoolean" };
    case "SQLiteTextJson":
      return { sqlType: "jsonb", columnType: "PgCustomColumn" }; // ../../src/db/postgres/columns.ts: jsonb handed to Bun as it is
    case "SQLiteText":
      return { sqlType: "text", columnType: "PgText" };
    case "SQLiteReal":
      return { sqlType: "double precision", columnType: "PgDoublePrecision" };
    case "SQLiteBlobBuffer":
      return { sqlType: "bytea", columnType: "PgCustomColumn" };
    default:
      return undefined;
  }
}

const sqliteDialect = new SQLiteSyncDialect();
const pgDialect = new PgDialect();

/** SQL as text without the dialect's identifier quotes, so the two dialects' renderings compare. */
function sqlText(expression: SQL, dialect: "sqlite" | "pg"): string {
  const query = dialect === "sqlite" ? sqliteDialect.sqlToQuery(expression) : pgDialect.sqlToQuery(expression);
  const params = query.params.length > 0 ? ` ${JSON.stringify(query.params)}` : "";
  return `${query.sql.replace(/[`"]/g, "")}${params}`;
}

interface ColumnShape {
  key: string;
  column: Column;
}

/** One table as both dialects can state it; lists are sorted strings so they compare as sets. */
interface TableShape {
  name: string;
  columns: Map<string, ColumnShape>;
  primaryKey: string[];
  /** `→ table(foreign columns) on delete X on update Y`, keyed by `(local columns)`. */
  foreignKeys: Map<string, string>;
  /** `(columns)`, column-level `.unique()` and table-level `unique()` alike, keyed by name. */
  uniques: Map<string, string>;
  /** `unique? (columns in order) where ...`, keyed by name. */
  indexes: Map<string, string>;
  checks: string[];
}

function shapeOf(table: AnyTable): TableShape {
  const dialect = is(table, SQLiteTable) ? "sqlite" : "pg";
  const config = is(table, SQLiteTable) ? sqliteTableConfig(table) : pgTableConfig(table as PgTable);
  const keyOf = new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [column, key]));
  const columns = new Map<string, ColumnShape>(config.columns.map((column: Column) => [column.name, { key: keyOf.get(column)!, column }]));
  const names = (list: Array<Column | SQL | { name: string }>) =>
    list.map((part) => (is(part, SQL) ? `(${sqlText(part, dialect)})` : (part as { name: string }).name)).join(", ");

  const primaryKey = [
    ...config.columns.filter((column: Column) => column.primary).map((column: Column) => column.name),
    ...config.primaryKeys.flatMap((key: { columns: Column[] }) => key.columns.map((column) => column.name)),
  ];

  const foreignKeys = new Map<string, string>();
  for (const foreignKey of config.foreignKeys as Array<{ reference(): { columns: Column[]; foreignTable: AnyTable; foreignColumns: Column[] }; onDelete?: string; onUpdate?: string }>) {
    const reference = foreignKey.reference();
    const local = names(reference.columns);
    // SQLite leaves an unstated action undefined, pg-core says "no action": the same to the database.
    const actions = `on delete ${foreignKey.onDelete ?? "no action"} on update ${foreignKey.onUpdate ?? "no action"}`;
    foreignKeys.set(`(${local})`, `→ ${getTableName(reference.foreignTable)}(${names(reference.foreignColumns)}) ${actions}`);
  }

  const uniques = new Map<string, string>();
  for (const column of config.columns as Column[]) if (column.isUnique) uniques.set(column.uniqueName!, `(${column.name})`);
  for (const unique of config.uniqueConstraints as Array<{ name?: string; columns: Column[]; getName?: () => string }>) {
    const name = unique.name ?? unique.getName?.() ?? "(unnamed)";
    uniques.set(name, `(${names(unique.columns)})`);
  }

  const indexes = new Map<string, string>();
  for (const { config: index } of config.indexes as Array<{ config: { name?: string; columns: Array<Column | SQL | { name: string }>; unique: boolean; where?: SQL } }>) {
    const name = index.name ?? "(unnamed)";
    const where = index.where ? ` where ${sqlText(index.where, dialect)}` : "";
    indexes.set(name, `${index.unique ? "unique " : ""}(${names(index.columns)})${where}`);
  }

  const checks = (config.checks as Array<{ name: string }>).map((check) => check.name).sort();
  return { name: config.name, columns, primaryKey, foreignKeys, uniques, indexes, checks };
}

const describeDefault = (value: unknown) => (is(value, SQL) ? "a SQL expression" : JSON.stringify(value));

/** What differs between a SQLite table and its PostgreSQL twin, each line naming table and column. */
function columnDifferences(table: string, name: string, lite: ColumnShape, pgShape: ColumnShape): string[] {
  const at = `${table}.${name}`;
  const found: string[] = [];
  const { column: s } = lite;
  const { column: p } = pgShape;
  if (lite.key !== pgShape.key) found.push(`${at}: property ${lite.key} in SQLite, ${pgShape.key} in PostgreSQL`);
  const mapped = pgTypeFor(s);
  if (!mapped) found.push(`${at}: SQLite's ${s.columnType} (${s.getSQLType()}) has no PostgreSQL type in the mapping`);
  else if (mapped.sqlType !== p.getSQLType() || mapped.columnType !== p.columnType)
    found.push(`${at}: SQLite's ${s.columnType} should be ${mapped.sqlType} (${mapped.columnType}), is ${p.getSQLType()} (${p.columnType})`);
  if (s.notNull !== p.notNull) found.push(`${at}: ${s.notNull ? "NOT NULL" : "nullable"} in SQLite, ${p.notNull ? "NOT NULL" : "nullable"} in PostgreSQL`);
  // SQLite marks every integer primary key as having a default (the rowid): only a declared default counts here.
  if ((s.default === undefined) !== (p.default === undefined))
    found.push(`${at}: default ${s.default === undefined ? "none" : describeDefault(s.default)} in SQLite, ${p.default === undefined ? "none" : describeDefault(p.default)} in PostgreSQL`);
  else if (s.default !== undefined && !is(s.default, SQL) && !is(p.default, SQL) && s.default !== p.default)
    found.push(`${at}: default ${describeDefault(s.default)} in SQLite, ${describeDefault(p.default)} in PostgreSQL`);
  if (!!s.defaultFn !== !!p.defaultFn) found.push(`${at}: $defaultFn in ${s.defaultFn ? "SQLite" : "PostgreSQL"} only`);
  if (!!s.onUpdateFn !== !!p.onUpdateFn) found.push(`${at}: $onUpdateFn in ${s.onUpdateFn ? "SQLite" : "PostgreSQL"} only`);
  // AUTOINCREMENT ⇔ an identity PostgreSQL fills by default (inserts may still name an ID).
  const autoIncrement = (s as Column & { autoIncrement?: boolean }).autoIncrement === true;
  const identity = p.generatedIdentity?.type;
  if (autoIncrement && identity !== "byDefault") found.push(`${at}: AUTOINCREMENT in SQLite needs generatedByDefaultAsIdentity() in PostgreSQL, has ${identity ?? "no identity"}`);
  if (!autoIncrement && identity !== undefined) found.push(`${at}: identity (${identity}) in PostgreSQL, no AUTOINCREMENT in SQLite`);
  if (!!s.generated !== !!p.generated) found.push(`${at}: generated column in ${s.generated ? "SQLite" : "PostgreSQL"} only`);
  return found;
}

function mapDifferences(what: string, table: string, lite: Map<string, string>, pgMap: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [key, value] of lite) {
    const twin = pgMap.get(key);
    if (twin === undefined) found.push(`${table}: ${what} ${key} ${value} is missing in PostgreSQL`);
    else if (twin !== value) found.push(`${table}: ${what} ${key} is ${value} in SQLite, ${twin} in PostgreSQL`);
  }
  for (const [key, value] of pgMap) if (!lite.has(key)) found.push(`${table}: ${what} ${key} ${value} is in PostgreSQL only`);
  return found;
}

function tableDifferences(liteTable: SQLiteTable, pgTableToCompare: PgTable): string[] {
  const lite = shapeOf(liteTable);
  const other = shapeOf(pgTableToCompare);
  const table = lite.name;
  const found: string[] = [];
  if (other.name !== table) found.push(`${table}: named ${other.name} in PostgreSQL`);
  for (const [name, column] of lite.columns) {
    const twin = other.columns.get(name);
    if (!twin) found.push(`${table}.${name}: missing in PostgreSQL`);
    else found.push(...columnDifferences(table, name, column, twin));
  }
  for (const name of other.columns.keys()) if (!lite.columns.has(name)) found.push(`${table}.${name}: in PostgreSQL only`);
  if (lite.primaryKey.join(", ") !== other.primaryKey.join(", "))
    found.push(`${table}: primary key (${lite.primaryKey.join(", ")}) in SQLite, (${other.primaryKey.join(", ")}) in PostgreSQL`);
  found.push(...mapDifferences("foreign key", table, lite.foreignKeys, other.foreignKeys));
  found.push(...mapDifferences("unique constraint", table, lite.uniques, other.uniques));
  found.push(...mapDifferences("index", table, lite.indexes, other.indexes));
  if (lite.checks.join() !== other.checks.join()) found.push(`${table}: checks [${lite.checks}] in SQLite, [${other.checks}] in PostgreSQL`);
  return found;
}

/** Exported tables by SQL name, with the name they are exported under. */
function tablesOf(module: Record<string, unknown>, kind: typeof SQLiteTable | typeof PgTable) {
  const tables = new Map<string, { exportName: string; table: AnyTable }>();
  for (const [exportName, value] of Object.entries(module)) if (is(value, kind)) tables.set(getTableName(value as AnyTable), { exportName, table: value as AnyTable });
  return tables;
}

const sqliteTables = tablesOf(sqlite, SQLiteTable);
const pgTables = tablesOf(pg, PgTable);
const sqliteOnly = new Set<string>(pg.SQLITE_ONLY_TABLES);

/**
 * Compile-time half: each PostgreSQL table's row type is its SQLite twin's (so every `$type` came
 * across). tsc reports the export names that differ; at run time this is nothing.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Pg = typeof pg;
type Lite = typeof sqlite;
type RowTypeMismatches = {
  [K in keyof Pg]: Pg[K] extends PgTable ? (K extends keyof Lite ? (Lite[K] extends SQLiteTable ? (Same<Pg[K]["$inferSelect"], Lite[K]["$inferSelect"]> extends true ? never : K) : K) : K) : never;
}[keyof Pg];
const rowTypesMatch: [RowTypeMismatches] extends [never] ? true : RowTypeMismatches = true;

describe("the PostgreSQL schema matches the SQLite one", () => {
  test("the reader found the tables (guards this test itself)", () => {
    expect(rowTypesMatch).toBe(true);
    expect(sqliteTables.size).toBeGreaterThan(30);
    expect(sqliteTables.has("messages")).toBe(true);
    expect(shapeOf(sqlite.messages).indexes.get("messages_recipient")).toBe("(recipient_id, id)");
    expect(shapeOf(pg.reactions).foreignKeys.get("(message_id)")).toBe("→ messages(id) on delete cascade on update no action");
  });

  test("every SQLite table but the SQLite-only ones has a twin of the same name, exported under the same name, and there are no others", () => {
    const missing = [...sqliteTables.keys()].filter((name) => !sqliteOnly.has(name) && !pgTables.has(name));
    const extra = [...pgTables.keys()].filter((name) => !sqliteTables.has(name));
    const renamed = [...pgTables]
      .filter(([name, { exportName }]) => sqliteTables.has(name) && sqliteTables.get(name)!.exportName !== exportName)
      .map(([name, { exportName }]) => `${name}: exported as ${sqliteTables.get(name)!.exportName} (SQLite), ${exportName} (PostgreSQL)`);
    expect(missing.map((name) => `${name}: no PostgreSQL table`)).toEqual([]);
    expect(extra.map((name) => `${name}: PostgreSQL only`)).toEqual([]);
    expect(renamed).toEqual([]);
  });

  test("SQLITE_ONLY_TABLES are tables the hand-written SQLite migrations make, and the migrations make no other table or index drizzle does not know", () => {
    const dir = join(import.meta.dir, "..", "..", "migrations");
    const sqlFiles = readdirSync(dir).filter((file) => file.endsWith(".sql")).sort();
    const text = sqlFiles.map((file) => readFileSync(join(dir, file), "utf8")).join("\n");
    const created = new Set([...text.matchAll(/CREATE\s+(?:VIRTUAL\s+)?TABLE\s+[`"]?(\w+)/gi)].map((match) => match[1]));
    const droppedTables = new Set([...text.matchAll(/DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?[`"]?(\w+)/gi)].map((match) => match[1]));
    // drizzle-kit rebuilds a table as __new_x and renames it: those are not tables of their own.
    const tables = [...created].filter((name) => !droppedTables.has(name) && !name.startsWith("__new_"));
    expect(pg.SQLITE_ONLY_TABLES.filter((name) => !created.has(name)).map((name) => `${name}: no SQLite migration creates it`)).toEqual([]);
    expect(tables.filter((name) => !sqliteTables.has(name) && !sqliteOnly.has(name)).map((name) => `${name}: made by a migration, in neither schema nor SQLITE_ONLY_TABLES`)).toEqual([]);

    const indexNames = new Set([...sqliteTables.values()].flatMap(({ table }) => {
      const shape = shapeOf(table);
      return [...shape.indexes.keys(), ...shape.uniques.keys()];
    }));
    const createdIndexes = new Set([...text.matchAll(/CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"]?(\w+)/gi)].map((match) => match[1]));
    for (const match of text.matchAll(/DROP\s+INDEX\s+(?:IF\s+EXISTS\s+)?[`"]?(\w+)/gi)) createdIndexes.delete(match[1]);
    expect([...createdIndexes].filter((name) => !indexNames.has(name)).map((name) => `${name}: made by a migration, not in the drizzle schema`)).toEqual([]);
  });

  for (const [name, { table }] of sqliteTables) {
    if (sqliteOnly.has(name) || !pgTables.has(name)) continue;
    test(`${name}: columns, keys, foreign keys, unique constraints and indexes`, () => {
      expect(tableDifferences(table as SQLiteTable, pgTables.get(name)!.table as PgTable)).toEqual([]);
    });
  }
});

describe("the comparison finds differences (guards the test above)", () => {
  test("a column left out, one of another type, a foreign key action and an index dropped are all reported", () => {
    // sessions as in tables.ts, but: no user_agent, address as bigint, a cascading user_id, no sessions_expiry.
    const altered = pgTable(
      "sessions",
      {
        id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
        tokenHash: pgText("token_hash").notNull().unique(),
        userId: bigint("user_id", { mode: "number" })
          .notNull()
          .references(() => pg.users.id, { onDelete: "cascade" }),
        createdAt: bigint("created_at", { mode: "number" }).notNull(),
        lastSeenAt: bigint("last_seen_at", { mode: "number" }).notNull(),
        expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
        address: bigint("address", { mode: "number" }).notNull(),
      },
      (table) => [index("sessions_user").on(table.userId)],
    );
    const found = tableDifferences(sqlite.sessions, altered);
    expect(found).toEqual([
      "sessions.user_agent: missing in PostgreSQL",
      "sessions.address: SQLite's SQLiteText should be text (PgText), is bigint (PgBigInt53)",
      "sessions: foreign key (user_id) is → users(id) on delete no action on update no action in SQLite, → users(id) on delete cascade on update no action in PostgreSQL",
      "sessions: index sessions_expiry (expires_at) is missing in PostgreSQL",
    ]);
  });

  test("a lost identity, nullability, default and column order of an index are reported", () => {
    const altered = pgTable(
      "drafts",
      {
        id: bigint("id", { mode: "number" }).primaryKey(),
        userId: bigint("user_id", { mode: "number" })
          .notNull()
          .references(() => pg.users.id),
        type: pgText("type").notNull().default("stream"),
        to: pgText("to").notNull(),
        topic: pgText("topic"),
        content: pgText("content").notNull(),
        timestamp: bigint("timestamp", { mode: "number" }).notNull(),
      },
      (table) => [index("drafts_user").on(table.timestamp, table.userId)],
    );
    expect(tableDifferences(sqlite.drafts, altered)).toEqual([
      "drafts.id: AUTOINCREMENT in SQLite needs generatedByDefaultAsIdentity() in PostgreSQL, has no identity",
      'drafts.type: default none in SQLite, "stream" in PostgreSQL',
      "drafts.to: SQLite's SQLiteTextJson should be jsonb (PgCustomColumn), is text (PgText)",
      "drafts.topic: NOT NULL in SQLite, nullable in PostgreSQL",
      "drafts: index drafts_user is (user_id, timestamp) in SQLite, (timestamp, user_id) in PostgreSQL",
    ]);
  });

  test("a SQLite column type the mapping does not know is reported with its table and column", () => {
    const lite = sqliteTable("stamps", { at: integer("at", { mode: "timestamp" }).notNull() });
    const other = pgTable("stamps", { at: bigint("at", { mode: "number" }).notNull() });
    expect(tableDifferences(lite, other)).toEqual(["stamps.at: SQLite's SQLiteTimestamp (integer) has no PostgreSQL type in the mapping"]);
  });
});
