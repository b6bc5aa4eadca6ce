import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { dialect } from "./dialect";

/**
 * Small pieces of SQL that SQLite and PostgreSQL spell differently, for statements written
 * with sql`` (lists bound as one parameter are db/sqlLists.ts's). Each gives SQLite the text
 * its statements had before PostgreSQL came (the hot paths' SQL stays byte for byte what it
 * was), and PostgreSQL its own when dialect() says so: build them when the statement is built,
 * never once at import. test/postgres/sqlFragments.test.ts runs them on both.
 */

const onPostgres = () => dialect() === "postgres";

/**
 * A boolean column is true. SQLite stores 0 or 1 and compares (`active = 1`, an equality its
 * indexes serve); PostgreSQL's column is a boolean. `column` is SQL text: a name, maybe qualified.
 */
export const isTrue = (column: string): SQL => sql.raw(onPostgres() ? column : `${column} = 1`);

/** A boolean column is false (see isTrue). */
export const isFalse = (column: string): SQL => sql.raw(onPostgres() ? `NOT ${column}` : `${column} = 0`);

/** A condition that always holds: SQLite's 1, PostgreSQL's true (PostgreSQL takes no integer as a condition). */
export const sqlTrue = (): SQL => (onPostgres() ? sql`true` : sql`1`);

/** A condition that never holds: SQLite's 0, PostgreSQL's false. */
export const sqlFalse = (): SQL => (onPostgres() ? sql`false` : sql`0`);

/** The larger of two values: SQLite's max() with two arguments, PostgreSQL's greatest(). */
export const larger = (a: SQL, b: SQL): SQL => (onPostgres() ? sql`greatest(${a}, ${b})` : sql`max(${a}, ${b})`);

/**
 * The total of an integer column over the rows, 0 when there are none. PostgreSQL sums bigint
 * as numeric, which its client gives as a string: cast back to bigint (a number, like SQLite's).
 */
export const totalOf = (column: AnyColumn): SQL<number> =>
  onPostgres() ? sql<number>`coalesce(sum(${column}), 0)::bigint` : sql<number>`coalesce(sum(${column}), 0)`;

/** sum() of an integer column, NULL when there are no rows (see totalOf). */
export const sumOf = (column: AnyColumn): SQL<number | null> => (onPostgres() ? sql<number | null>`sum(${column})::bigint` : sql<number | null>`sum(${column})`);

/** A column of the rows postgresTuples reads, and the type its values are cast to. */
export type TupleColumn = readonly [name: string, type: "bigint" | "text"];

/**
 * PostgreSQL's rows of a JSON array of arrays bound as one parameter (as db/sqlLists.ts binds
 * lists, through text: Bun's client would encode a jsonb parameter as JSON again), as a
 * subquery to select from: element i of each array is column i, cast to its type. SQLite's
 * statements read the same parameter with json_each and json_extract, each in its own words.
 */
export function postgresTuples(json: string, columns: readonly TupleColumn[]): SQL {
  const selected = columns.map(([name, type], i) => `(e->>${i})::${type} AS ${name}`).join(", ");
  return sql`(SELECT ${sql.raw(selected)} FROM jsonb_array_elements(${json}::text::jsonb) e)`;
}
