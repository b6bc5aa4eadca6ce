/** PostgreSQL's tables of the organization's own things and the server's housekeeping (see ./tables.ts). */
import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import type { OutboxItem } from "../columnTypes";
import { users } from "./accounts";
import { id, int, jsonb } from "./columns";

export const realmEmoji = pgTable("realm_emoji", {
  id: id(),
  name: text("name").notNull(),
  authorId: int("author_id").references(() => users.id),
  sha256: text("sha256").notNull(),
  contentType: text("content_type").notNull(),
  fileName: text("file_name").notNull(),
  deactivated: boolean("deactivated").notNull().default(false),
  createTime: int("create_time").notNull(),
});

export const linkifiers = pgTable("linkifiers", {
  id: id(),
  pattern: text("pattern").notNull().unique(),
  urlTemplate: text("url_template").notNull(),
  order: int("order").notNull(),
});

export const outbox = pgTable(
  "outbox",
  {
    id: id(),
    kind: text("kind").$type<OutboxItem["kind"]>().notNull(),
    payload: jsonb("payload").$type<OutboxItem["payload"]>().notNull(),
    createdAt: int("created_at").notNull(),
    sentAt: int("sent_at"),
    attempts: int("attempts").notNull().default(0),
    nextAttemptAt: int("next_attempt_at").notNull(),
    lastError: text("last_error"),
    gaveUpAt: int("gave_up_at"),
  },
  (table) => [index("outbox_pending").on(table.sentAt, table.nextAttemptAt)],
);

export const serverSettings = pgTable("server_settings", {
  name: text("name").primaryKey(),
  value: jsonb("value").notNull(),
});

export const backupRuns = pgTable("backup_runs", {
  id: id(),
  startedAt: int("started_at").notNull(),
  finishedAt: int("finished_at").notNull(),
  file: text("file"),
  bytes: int("bytes"),
  error: text("error"),
});
