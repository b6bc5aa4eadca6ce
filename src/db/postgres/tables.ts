/**
 * Every table of src/db/schema.ts again, in drizzle's pg-core, for running Parley on PostgreSQL.
 * Nothing reads or writes through these yet: they are the schema drizzle-kit makes PostgreSQL's
 * migrations from (drizzle.postgres.config.ts, migrations/postgres/), and
 * test/unit/schemaParity.test.ts keeps them in step with the SQLite tables: the same table and
 * column names, nullability, defaults, keys, foreign keys (same actions), unique constraints and
 * indexes (same names, columns in the same order). Each table is exported under its SQLite twin's
 * name; a change to a SQLite table is made here too, in the same commit. The tables live in the
 * files re-exported below, by area; ./columns.ts has the shared column types.
 *
 * Types, applied uniformly:
 * - `integer` (IDs, counts, UNIX seconds, anything numeric) → `bigint(name, { mode: "number" })`
 *   (`int` of ./columns.ts): UNIX seconds overflow int4 in 2038, scheduled messages may be far in
 *   the future, and message IDs must not run out.
 * - an integer primary key SQLite fills itself (`primaryKey({ autoIncrement: true })`) →
 *   `bigint(...).primaryKey().generatedByDefaultAsIdentity()` (`id` of ./columns.ts): by default,
 *   not always, as imports and tests insert explicit IDs. Unlike SQLite's AUTOINCREMENT, an
 *   explicit ID does not move the sequence on: whoever inserts explicit IDs must set the sequence
 *   past them afterwards (setval), or the next generated ID collides.
 *   Integer primary keys every insert names stay plain bigint primary keys: realms.id (always
 *   REALM_ID), the user IDs keying presences and user_statuses, default_channels.channel_id.
 * - `integer(..., { mode: "boolean" })` → `boolean`.
 * - `text(..., { mode: "json" })` → `jsonb`, with the same `$type`.
 * - `text` → `text` (enums stay text with the same `$type`); `real` → `doublePrecision`;
 *   `blob` → `bytea` of ./columns.ts. (No table has a real or blob column today.)
 * - Defaults: literal defaults stay as they are (booleans as true/false); a SQL default written
 *   for SQLite gets PostgreSQL's equivalent, e.g. `(unixepoch())` → `extract(epoch from now())::bigint`.
 *   (No table has a SQL default today.)
 *
 * These files import only drizzle-orm, each other, ../columnTypes.ts and the SQLite table files (for
 * `$type`s): nothing of ours imports them but this folder, so they can close no import circle.
 */
export * from "./accounts";
export * from "./channels";
export * from "./messages";
export * from "./server";
export * from "./userState";

/**
 * Tables of the SQLite schema with no PostgreSQL twin: the FTS5 full-text index of messages
 * (migrations 0001/0002: a virtual table, its shadow tables and its triggers; db/searchIndex.ts
 * fills it). PostgreSQL's search (a tsvector column or expression with a GIN index) is a later step.
 */
export const SQLITE_ONLY_TABLES = ["messages_fts"] as const;
