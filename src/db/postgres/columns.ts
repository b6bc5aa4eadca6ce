/** The column types ./tables.ts maps SQLite's to, shared by the table files of this folder. */
import { bigint, customType } from "drizzle-orm/pg-core";
import type { reactions as sqliteReactions } from "../sqlite/messages";
import type { realms as sqliteRealms } from "../sqlite/accounts";

/** PostgreSQL's binary type, for SQLite's `blob` columns (`Uint8Array` in, `Uint8Array` out). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * PostgreSQL's jsonb, with values handed to Bun's client as they are. drizzle's own jsonb turns
 * a value into JSON text first, and Bun's client, seeing a parameter the statement types as
 * jsonb, encodes that text as JSON again: a JSON string scalar would be stored instead of the
 * object. Bun encodes objects, arrays and strings itself and parses what it reads back.
 */
export const jsonb = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => "jsonb",
  toDriver: (value) => value,
  fromDriver: (value) => value,
});

/** Numbers of every kind: IDs, counts, UNIX seconds. */
export const int = (name: string) => bigint(name, { mode: "number" });

/** A key SQLite fills itself (AUTOINCREMENT); inserts may still name one. */
export const id = (name = "id") => int(name).primaryKey().generatedByDefaultAsIdentity();

/** A `$type` the SQLite column declares with a type from a module these files do not import (model/). */
type DataOf<Column> = Column extends { _: { data: infer Data } } ? Data : never;
export type ReactionType = DataOf<typeof sqliteReactions.reactionType>;
export type RealmSettings = DataOf<typeof sqliteRealms.settings>;
export type UserSettings = DataOf<typeof sqliteRealms.userSettingsDefaults>;
