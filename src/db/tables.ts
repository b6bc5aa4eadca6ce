/**
 * The tables, for every query module of db/: they import tables from here and nowhere else
 * (test/unit/layers.test.ts), so that which dialect's tables a process uses is decided in one
 * place. Today that is SQLite's (./sqlite/); the PostgreSQL store will choose between these and
 * their twins in ./postgres/ when a database is opened.
 */
export * from "./sqlite/tables";
