import { asc, eq, sql } from "drizzle-orm";
import { compileLinkifiers, type CompiledLinkifier, type LinkifierDefinition } from "../render/linkifiers";
import { cachedUntilChange } from "./caches";
import { prepared } from "./prepared";
import type { Reader, Tx } from "./types";
import { linkifiers } from "./tables";

export type Linkifier = typeof linkifiers.$inferSelect;

// Every send and every message fetch reads the list (see prepared.ts).
const orderedLinkifiers = prepared((db) => db.select().from(linkifiers).orderBy(asc(linkifiers.order), asc(linkifiers.id)).prepare());

export async function listLinkifiers(db: Reader): Promise<Linkifier[]> {
  return await orderedLinkifiers(db).all();
}

// Every send renders with them; they change only in write() transactions (db/caches.ts).
const currentDefinitions = cachedUntilChange("linkifiers", async (db): Promise<readonly LinkifierDefinition[]> =>
  Object.freeze((await orderedLinkifiers(db).all()).map((row) => Object.freeze({ id: row.id, pattern: row.pattern, urlTemplate: row.urlTemplate }))),
);

/** The list as the message renderer takes it, in order. */
export async function linkifierDefinitions(db: Reader): Promise<readonly LinkifierDefinition[]> {
  return currentDefinitions(db);
}

/** The list compiled, in order, for topic_links (compiling is cached in render/linkifiers). */
export async function realmLinkifiers(db: Reader): Promise<CompiledLinkifier[]> {
  return compileLinkifiers(await linkifierDefinitions(db));
}

export async function findLinkifier(db: Reader, id: number): Promise<Linkifier | undefined> {
  return (await db.select().from(linkifiers).where(eq(linkifiers.id, id)))[0];
}

export async function findLinkifierByPattern(db: Reader, pattern: string): Promise<Linkifier | undefined> {
  return (await db.select().from(linkifiers).where(eq(linkifiers.pattern, pattern)))[0];
}

/** A new linkifier goes last. */
export async function insertLinkifier(tx: Tx, pattern: string, urlTemplate: string): Promise<Linkifier> {
  const next = sql<number>`coalesce((select max(${linkifiers.order}) from ${linkifiers}), 0) + 1`;
  return (await tx.insert(linkifiers).values({ pattern, urlTemplate, order: next }).returning())[0];
}

export async function updateLinkifier(tx: Tx, id: number, pattern: string, urlTemplate: string) {
  await tx.update(linkifiers).set({ pattern, urlTemplate }).where(eq(linkifiers.id, id));
}

export async function deleteLinkifier(tx: Tx, id: number) {
  await tx.delete(linkifiers).where(eq(linkifiers.id, id));
}

export async function setLinkifierOrder(tx: Tx, orderedIds: readonly number[]) {
  for (const [index, id] of orderedIds.entries()) await tx.update(linkifiers).set({ order: index + 1 }).where(eq(linkifiers.id, id));
}
