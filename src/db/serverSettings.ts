import { eq } from "drizzle-orm";
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
