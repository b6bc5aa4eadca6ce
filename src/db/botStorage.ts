import { primaryKey, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** A bot's own key-value store (the bot storage API python-zulip-api's bots use). */
export const botStorage = sqliteTable(
  "bot_storage",
  {
    botId: integer("bot_id")
      .notNull()
      .references(() => users.id),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (table) => [primaryKey({ columns: [table.botId, table.key] })],
);
