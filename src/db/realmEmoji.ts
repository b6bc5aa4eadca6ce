import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

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
