import { eq } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { serverSettings } from "./tables";

export async function readServerSetting<T>(db: Reader, name: string): Promise<T | undefined> {
  return db.select().from(serverSettings).where(eq(serverSettings.name, name)).get()?.value as T | undefined;
}

export async function writeServerSetting(tx: Tx, name: string, value: unknown) {
  tx.insert(serverSettings).values({ name, value }).onConflictDoUpdate({ target: serverSettings.name, set: { value } }).run();
}

export async function deleteServerSetting(tx: Tx, name: string) {
  tx.delete(serverSettings).where(eq(serverSettings.name, name)).run();
}
