import { eq } from "drizzle-orm";
import { cachedUntilChange } from "./caches";
import type { Reader, Tx } from "./types";
import { serverSettings } from "./tables";

export async function readServerSetting<T>(db: Reader, name: string): Promise<T | undefined> {
  return (await db.select().from(serverSettings).where(eq(serverSettings.name, name)))[0]?.value as T | undefined;
}

export async function writeServerSetting(tx: Tx, name: string, value: unknown) {
  await tx.insert(serverSettings).values({ name, value }).onConflictDoUpdate({ target: serverSettings.name, set: { value } });
}

export async function deleteServerSetting(tx: Tx, name: string) {
  await tx.delete(serverSettings).where(eq(serverSettings.name, name));
}

// The settings read often and changed rarely (the Web Push keys, read at every push): a copy
// of the whole small table, kept until a write.
const allSettings = cachedUntilChange("serverSettings", async (db) => new Map((await db.select().from(serverSettings)).map((row) => [row.name, row.value])));

/** readServerSetting, from the kept copy. */
export async function serverSettingNow<T>(db: Reader, name: string): Promise<T | undefined> {
  return (await allSettings(db)).get(name) as T | undefined;
}
