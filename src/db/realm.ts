import { eq } from "drizzle-orm";
import { REALM_SETTING_DEFAULTS, type RealmSettings } from "../model/realmSettings";
import { cachedUntilChange } from "./caches";
import { prepared } from "./prepared";
import type { Reader, Tx } from "./types";
import { realms } from "./tables";

export type RealmRow = typeof realms.$inferSelect;
export type Realm = Omit<RealmRow, "settings"> & { settings: RealmSettings };

export const REALM_ID = 1;

const realmRow = prepared((db) => db.select().from(realms).where(eq(realms.id, REALM_ID)).prepare());

// Every request reads the realm; it changes rarely. Frozen, since callers share one copy.
const currentRealm = cachedUntilChange("realm", async (db): Promise<Realm | undefined> => {
  const row = (await realmRow(db).get()) as RealmRow | undefined;
  if (!row) return undefined;
  return Object.freeze({ ...row, settings: Object.freeze({ ...REALM_SETTING_DEFAULTS, ...row.settings }) });
});

export async function findRealm(db: Reader): Promise<Realm | undefined> {
  return currentRealm(db);
}

/** The realm as last committed, when its copy is current (no query, no handle); undefined otherwise. */
export const realmIfCached = (): Promise<Realm | undefined> | undefined => currentRealm.ifCurrent();

/** The realm, for code that runs only once the organization exists. */
export async function getRealm(db: Reader): Promise<Realm> {
  const realm = await findRealm(db);
  if (!realm) throw new Error("The organization has not been set up");
  return realm;
}

// Every message's shaping asks for it; parsing the URL each time showed in profiles.
const hostsByUrl = new Map<string, string>();

/** Host part of the realm URL, used as the e-mail domain of bots. */
export function realmHost(realm: Pick<Realm, "url">): string {
  let host = hostsByUrl.get(realm.url);
  if (host === undefined) {
    if (hostsByUrl.size > 100) hostsByUrl.clear();
    hostsByUrl.set(realm.url, (host = new URL(realm.url).hostname));
  }
  return host;
}

/** Replaces the realm's settings (all of them: callers pass the current ones with their changes). */
export async function setRealmSettings(tx: Tx, settings: RealmSettings) {
  await tx.update(realms).set({ settings }).where(eq(realms.id, REALM_ID));
}

// ---- Writes of the actions ----

export type NewRealm = typeof realms.$inferInsert;

/** Stores the one organization (once, when it is created). */
export async function insertRealm(tx: Tx, values: NewRealm) {
  await tx.insert(realms).values(values);
}

export async function updateRealm(tx: Tx, changes: Partial<Omit<NewRealm, "id">>) {
  await tx.update(realms).set(changes).where(eq(realms.id, REALM_ID));
}
