import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { messages } from "./messages";
import { users } from "./users";

/**
 * Uploaded files. The bytes live in the data dir under their SHA-256 (content-addressed, so the
 * same file uploaded twice is stored once); each upload has its own row and URL path.
 */
export const attachments = sqliteTable(
  "attachments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id),
    /** The part of the URL after /user_uploads/: "{realm id}/{random}/{file name}". */
    pathId: text("path_id").notNull().unique(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    createTime: integer("create_time").notNull(),
  },
  (table) => [index("attachments_owner").on(table.ownerId), index("attachments_sha256").on(table.sha256)],
);

/** Which messages link an upload: who may read one of them may download it. */
export const attachmentMessages = sqliteTable(
  "attachment_messages",
  {
    attachmentId: integer("attachment_id")
      .notNull()
      .references(() => attachments.id),
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.attachmentId, table.messageId] }), index("attachment_messages_message").on(table.messageId)],
);
