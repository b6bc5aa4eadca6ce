// The server and the organization's configuration: custom emoji, linkifiers, the outbox, server
// settings, backup runs. SQLite's tables; their PostgreSQL twins are in ../postgres/ (same file
// names).
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { OutboxItem } from "../columnTypes";
import { users } from "./accounts";

/** Custom emoji. Deactivated ones keep their row and ID, so old messages and reactions still show them. */
export const realmEmoji = sqliteTable("realm_emoji", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  authorId: integer("author_id").references(() => users.id),
  /** The uploaded image, by SHA-256 in the data dir's file store. */
  sha256: text("sha256").notNull(),
  contentType: text("content_type").notNull(),
  /** The file name the image is served under (its extension names the format). */
  fileName: text("file_name").notNull(),
  deactivated: integer("deactivated", { mode: "boolean" }).notNull().default(false),
  createTime: integer("create_time").notNull(),
});

/** The organization's linkifiers (spec 2.8); `order` is their place in the list clients and the renderer follow. */
export const linkifiers = sqliteTable("linkifiers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** Unique, as in the reference: two linkifiers for one pattern could only conflict. */
  pattern: text("pattern").notNull().unique(),
  urlTemplate: text("url_template").notNull(),
  order: integer("order").notNull(),
});

/**
 * The durable outbox: work for the outside world (e-mails now, outgoing webhooks later) is
 * written here in the same transaction as the change that causes it, and a sender delivers
 * it after COMMIT. A rollback leaves nothing to send, and a crash loses nothing queued.
 * A sender takes rows with sent_at null and next_attempt_at due, and on failure counts the
 * attempt and pushes next_attempt_at back.
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").$type<OutboxItem["kind"]>().notNull(),
    payload: text("payload", { mode: "json" }).$type<OutboxItem["payload"]>().notNull(),
    createdAt: integer("created_at").notNull(),
    /** When delivery succeeded; null while pending. */
    sentAt: integer("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    /** Not before this time (UNIX seconds): lets a sender back off after failures. */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    /** When the sender stopped trying (attempts ran out, or a permanent refusal); null otherwise. */
    gaveUpAt: integer("gave_up_at"),
  },
  (table) => [index("outbox_pending").on(table.sentAt, table.nextAttemptAt)],
);

/**
 * Settings of the server itself that an administrator changes in the browser (the SMTP relay),
 * as JSON by name. Settings from the environment take precedence over these (config.ts).
 */
export const serverSettings = sqliteTable("server_settings", {
  name: text("name").primaryKey(),
  value: text("value", { mode: "json" }).notNull(),
});

/**
 * The outcome of each scheduled backup, so an admin can see (server status, /metrics) that
 * backups are still being made: a failure at 03:00 is otherwise only a log line nobody reads.
 */
export const backupRuns = sqliteTable("backup_runs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** UNIX seconds. */
  startedAt: integer("started_at").notNull(),
  finishedAt: integer("finished_at").notNull(),
  /** The archive written; null when the run failed or was skipped. */
  file: text("file"),
  bytes: integer("bytes"),
  /** Why it failed or was skipped; null on success. */
  error: text("error"),
});
