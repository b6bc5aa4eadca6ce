/**
 * Which SQL dialect this process's database speaks. SQL that differs between SQLite and
 * PostgreSQL (a JSON function, a list bound as one parameter) asks here and builds its own
 * text; everything else is written once, through drizzle. Today only SQLite is opened: the
 * PostgreSQL store will call useDialect("postgres") when it opens a database, before any
 * query. Tests of such SQL switch it to render both (test/postgres/sqlFragments.test.ts).
 */
export type Dialect = "sqlite" | "postgres";

let current: Dialect = "sqlite";

export const dialect = (): Dialect => current;

export function useDialect(next: Dialect) {
  current = next;
}
