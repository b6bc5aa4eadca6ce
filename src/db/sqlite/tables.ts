/**
 * Every table of the SQLite database, by area, in drizzle's sqlite-core: what drizzle-kit makes
 * migrations/ from (drizzle.config.ts, through ../schema.ts) and what ../tables.ts gives the
 * query modules. Their PostgreSQL twins are in ../postgres/ (the same file names), held to them
 * by test/unit/schemaParity.test.ts; a change here is made there too, in the same commit.
 */
export * from "./accounts";
export * from "./channels";
export * from "./messages";
export * from "./server";
export * from "./userState";

/**
 * Tables of this schema with no PostgreSQL twin: the FTS5 full-text index of messages is made
 * by hand-written migrations (0001, 0002), not here, and db/searchIndex.ts fills it.
 */
