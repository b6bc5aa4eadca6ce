import { eq } from "drizzle-orm";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Reader, Tx } from "./types";

/**
 * Settings of the server itself that an administrator changes in the browser (the SMTP relay),
 * as JSON by name. Settings from the environment take precedence over these (config.ts).
 */
export const serverSettings = sqliteTable("server_settings", {
  name: text("name").primaryKey(),
  value: text("value", { mode: "json" }).notNull(),
});

export async function readServerSetting<T>(db: Reader, name: string): Promise<T | undefined> {
  return db.select().from(serverSettings).where(eq(serverSettings.name, name)).get()?.value as T | undefined;
}

export async function writeServerSetting(tx: Tx, name: string, value: unknown) {
  tx.insert(serverSettings).values({ name, value }).onConflictDoUpdate({ target: serverSettings.name, set: { value } }).run();
}

export async function deleteServerSetting(tx: Tx, name: string) {
  tx.delete(serverSettings).where(eq(serverSettings.name, name)).run();
}
