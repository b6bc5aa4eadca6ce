import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { join } from "node:path";
import { asc, getTableName, is, type Table } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/bun-sql";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { getTableConfig as pgTableConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { DATABASE_FILE, DataDirError } from "./dataDir";
import { withNumbers, type PostgresClient } from "./postgresConnection";
import * as postgresTables from "./postgres/tables";
import * as sqliteTables from "./sqlite/tables";

/**
 * `parley migrate-to-postgres`: every row of a SQLite data dir's database copied into an empty
 * PostgreSQL database that has Parley's schema (db/postgresClient.ts made it), table by table in
 * the order their foreign keys need, through both dialects' drizzle tables (which turn SQLite's
 * 0/1 and JSON text into booleans and jsonb). Then identity sequences are set past the copied
 * IDs, and each table is checked: the same number of rows, and the same SHA-256 over its rows
 * read back in key order from both.
 *
 * The FTS5 index is not copied (PostgreSQL keeps its own over the messages), nor are files.
 */

const BATCH = 500;

export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
}

export interface CopyReport {
  tables: Array<{ table: string; rows: number; sha256: string }>;
}

interface TablePair {
  name: string;
  sqlite: SQLiteTable;
  postgres: PgTable;
  /** Columns pointing into the same table: copied as null, then set once every row is in. */
  selfReferences: string[];
  keyColumns: string[];
}

/** The tables, each after those its foreign keys point to. */
function tablesInOrder(): TablePair[] {
  const sqliteByName = new Map((Object.values(sqliteTables) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable)).map((table) => [getTableName(table), table]));
  const postgresByName = new Map((Object.values(postgresTables) as unknown[]).filter((value): value is PgTable => is(value, PgTable)).map((table) => [getTableName(table), table]));
  const pairs = new Map<string, TablePair & { dependsOn: Set<string> }>();
  for (const [name, sqlite] of sqliteByName) {
    const postgres = postgresByName.get(name);
    if (!postgres) continue;
    const config = sqliteTableConfig(sqlite);
    const dependsOn = new Set<string>();
    const selfReferences: string[] = [];
    for (const foreignKey of config.foreignKeys) {
      const reference = foreignKey.reference();
      const target = getTableName(reference.foreignTable);
      if (target === name) selfReferences.push(...reference.columns.map((column) => column.name));
      else dependsOn.add(target);
    }
    const primary = config.columns.filter((column) => column.primary).map((column) => column.name);
    const keyColumns = primary.length > 0 ? primary : (config.primaryKeys[0]?.columns.map((column) => column.name) ?? config.columns.map((column) => column.name));
    pairs.set(name, { name, sqlite, postgres, selfReferences, keyColumns, dependsOn });
  }
  const ordered: TablePair[] = [];
  const placed = new Set<string>();
  while (placed.size < pairs.size) {
    const ready = [...pairs.values()].filter((pair) => !placed.has(pair.name) && [...pair.dependsOn].every((target) => placed.has(target) || !pairs.has(target)));
    if (ready.length === 0) throw new Error(`The tables' foreign keys form a circle: ${[...pairs.keys()].filter((name) => !placed.has(name)).join(", ")}`);
    for (const pair of ready.sort((a, b) => a.name.localeCompare(b.name))) {
      ordered.push(pair);
      placed.add(pair.name);
    }
  }
  return ordered;
}

const propertyOf = (table: Table, columnName: string) => Object.entries(table as unknown as Record<string, { name?: string }>).find(([, column]) => column?.name === columnName)?.[0];

export async function copyToPostgres(dataDir: string, databaseUrl: string, progress: (step: CopyProgress) => void): Promise<CopyReport> {
  const sqlite = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  const client = new SQL({ url: databaseUrl, bigint: true, max: 1 });
  try {
    const reserved = withNumbers((await client.reserve()) as unknown as PostgresClient);
    const from = drizzleSqlite({ client: sqlite });
    const to = drizzlePostgres({ client: reserved as never });
    const report: CopyReport = { tables: [] };
    const pairs = tablesInOrder();
    await reserved.unsafe("BEGIN");
    try {
      for (const pair of pairs) {
        const [{ n: existing }] = (await reserved.unsafe(`SELECT count(*) AS n FROM "${pair.name}"`)) as unknown as Array<{ n: number }>;
        // parley_migrations aside, a schema just made holds nothing but what init makes; the
        // command refuses a target where anything was written (see migrateToPostgres).
        if (existing > 0) throw new DataDirError(`The PostgreSQL database already holds rows in ${pair.name}: give migrate-to-postgres an empty database.`);
        const total = (sqlite.query(`SELECT count(*) AS n FROM "${pair.name}"`).get() as { n: number }).n;
        const order = pair.keyColumns.map((name) => asc((pair.sqlite as unknown as Record<string, never>)[propertyOf(pair.sqlite, name)!]));
        let copied = 0;
        progress({ table: pair.name, copied, total });
        for (let offset = 0; offset < total; offset += BATCH) {
          const rows = (await from.select().from(pair.sqlite).orderBy(...order).limit(BATCH).offset(offset)) as Array<Record<string, unknown>>;
          const inserted = rows.map((row) => {
            const copy = { ...row };
            for (const column of pair.selfReferences) copy[propertyOf(pair.sqlite, column)!] = null;
            return copy;
          });
          if (inserted.length > 0) await to.insert(pair.postgres).values(inserted as never);
          copied += rows.length;
          progress({ table: pair.name, copied, total });
        }
        for (const column of pair.selfReferences) {
          const key = pair.keyColumns[0];
          const pairsToSet = sqlite.query(`SELECT "${key}" AS k, "${column}" AS v FROM "${pair.name}" WHERE "${column}" IS NOT NULL`).all() as Array<{ k: number; v: number }>;
          for (const { k, v } of pairsToSet) await reserved.unsafe(`UPDATE "${pair.name}" SET "${column}" = $1 WHERE "${key}" = $2`, [v, k]);
        }
        const identity = pgTableConfig(pair.postgres).columns.find((column) => (column as unknown as { generatedIdentity?: unknown }).generatedIdentity !== undefined);
        if (identity) {
          await reserved.unsafe(`SELECT setval(pg_get_serial_sequence('"${pair.name}"', '${identity.name}'), coalesce((SELECT max("${identity.name}") FROM "${pair.name}"), 0) + 1, false)`);
        }
      }
      // Checked inside the transaction: what is committed is what was verified.
      for (const pair of pairs) {
        const order = (table: Table) => pair.keyColumns.map((name) => asc((table as unknown as Record<string, never>)[propertyOf(table, name)!]));
        const left = await checksum(async (offset) => (await from.select().from(pair.sqlite).orderBy(...order(pair.sqlite)).limit(BATCH).offset(offset)) as unknown[]);
        const right = await checksum(async (offset) => (await to.select().from(pair.postgres).orderBy(...order(pair.postgres)).limit(BATCH).offset(offset)) as unknown[]);
        if (left.rows !== right.rows || left.sha256 !== right.sha256) {
          throw new Error(`Verifying ${pair.name} failed: SQLite has ${left.rows} rows (SHA-256 ${left.sha256}), PostgreSQL ${right.rows} (${right.sha256}). Nothing was committed.`);
        }
        report.tables.push({ table: pair.name, rows: left.rows, sha256: left.sha256 });
      }
      await reserved.unsafe("COMMIT");
    } catch (error) {
      await Promise.resolve(reserved.unsafe("ROLLBACK")).catch(() => {});
      throw error;
    } finally {
      (reserved as unknown as { release(): void }).release();
    }
    return report;
  } finally {
    sqlite.close();
    await client.close({ timeout: 5 });
  }
}

/** SHA-256 over a table's rows as drizzle maps them (the same values in either dialect), in key order. */
async function checksum(page: (offset: number) => Promise<unknown[]>): Promise<{ rows: number; sha256: string }> {
  const hash = new Bun.CryptoHasher("sha256");
  let rows = 0;
  for (let offset = 0; ; offset += BATCH) {
    const batch = await page(offset);
    for (const row of batch) hash.update(`${stableJson(row)}\n`);
    rows += batch.length;
    if (batch.length < BATCH) break;
  }
  return { rows, sha256: hash.digest("hex") };
}

const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner as object).sort(([a], [b]) => a.localeCompare(b))) : inner,
  );
