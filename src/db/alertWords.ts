import { primaryKey, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** Words a user wants to be alerted to, as they typed them (matched without regard to case). */
export const alertWords = sqliteTable(
  "alert_words",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    word: text("word").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.word] })],
);
