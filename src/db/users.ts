import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { Role } from "../model/roles";
import { prepared } from "./prepared";
import { idList, textList } from "./sqlLists";
import type { Reader, Tx } from "./types";
import { botServices, users } from "./tables";

export type User = typeof users.$inferSelect;

export type BotService = typeof botServices.$inferSelect;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

// Every authenticated request and most actions look users up; see prepared.ts for why these
// are compiled once.
const userById = prepared((db) => db.select().from(users).where(eq(users.id, sql.placeholder("id"))).prepare());
const userByEmail = prepared((db) => db.select().from(users).where(eq(users.email, sql.placeholder("email"))).prepare());

export async function findUserById(db: Reader, id: number): Promise<User | undefined> {
  return (await userById(db).get({ id })) as User | undefined;
}

export async function findUserByEmail(db: Reader, email: string): Promise<User | undefined> {
  return (await userByEmail(db).get({ email: normalizeEmail(email) })) as User | undefined;
}

export async function listUsers(db: Reader): Promise<User[]> {
  return await db.select().from(users).orderBy(asc(users.id));
}

export async function listBotsOwnedBy(db: Reader, ownerId: number, options: { activeOnly?: boolean } = {}): Promise<User[]> {
  const owned = and(eq(users.botOwnerId, ownerId), eq(users.isBot, true));
  return await db
    .select()
    .from(users)
    .where(options.activeOnly ? and(owned, eq(users.isActive, true)) : owned)
    .orderBy(asc(users.id));
}

/** Active human organization administrators and owners. */
export async function activeAdministratorIds(db: Reader): Promise<number[]> {
  return (await db
    .select({ id: users.id })
    .from(users)
    .where(and(lte(users.role, Role.ADMINISTRATOR), eq(users.isActive, true), eq(users.isBot, false))))
    .map((row) => row.id);
}

/** An active user or bot with this full name, compared case-insensitively. */
export async function findActiveUserByFullName(db: Reader, fullName: string): Promise<User | undefined> {
  return (await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.fullName}) = lower(${fullName})`, eq(users.isActive, true))))[0];
}

export async function countActiveOwners(db: Reader): Promise<number> {
  const row = (await db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.role, Role.OWNER), eq(users.isActive, true), eq(users.isBot, false))))[0];
  return row?.n ?? 0;
}

export async function findBotService(db: Reader, botId: number): Promise<BotService | undefined> {
  return (await db.select().from(botServices).where(eq(botServices.botId, botId)))[0];
}

export async function insertBotService(tx: Tx, values: typeof botServices.$inferInsert): Promise<BotService> {
  return (await tx.insert(botServices).values(values).returning())[0];
}

export type NewUser = typeof users.$inferInsert;

export async function insertUser(tx: Tx, values: NewUser): Promise<User> {
  return (await tx
    .insert(users)
    .values({ ...values, email: normalizeEmail(values.email) })
    .returning())[0];
}

export async function setApiKey(tx: Tx, userId: number, apiKey: string) {
  await tx.update(users).set({ apiKey }).where(eq(users.id, userId));
}

export async function setUserActive(tx: Tx, userId: number, isActive: boolean) {
  await tx.update(users).set({ isActive }).where(eq(users.id, userId));
}

/** How many people (bots left out) have an active account. */
export async function countActiveHumans(db: Reader): Promise<number> {
  return (await db.select({ id: users.id }).from(users).where(and(eq(users.isActive, true), eq(users.isBot, false)))).length;
}

/** Every account with this role (active or not), with when it joined. */
export async function accountsWithRole(db: Reader, role: Role): Promise<Array<Pick<User, "id" | "dateJoined" | "isActive">>> {
  return await db.select({ id: users.id, dateJoined: users.dateJoined, isActive: users.isActive }).from(users).where(eq(users.role, role));
}

/** The settings of these users (unknown IDs left out). */
export async function settingsOfUsers(db: Reader, userIds: number[]): Promise<Array<Pick<User, "id" | "settings">>> {
  return await db.select({ id: users.id, settings: users.settings }).from(users).where(inArray(users.id, userIds));
}

/** The settings of those of these users who are active people, not bots: who may be notified. */
export async function settingsOfActiveHumans(db: Reader, userIds: number[]): Promise<Array<Pick<User, "id" | "settings">>> {
  if (userIds.length === 0) return [];
  return await db
    .select({ id: users.id, settings: users.settings })
    .from(users)
    .where(and(inArray(users.id, userIds), eq(users.isActive, true), eq(users.isBot, false)));
}

/** The bots of the organization, system bots aside, oldest first: of one owner, or all of them. Deactivated ones included. */
export async function listRealmBots(db: Reader, options: { ownerId?: number } = {}): Promise<User[]> {
  const owned = options.ownerId === undefined ? undefined : eq(users.botOwnerId, options.ownerId);
  return await db
    .select()
    .from(users)
    .where(and(eq(users.isBot, true), eq(users.isSystemBot, false), owned))
    .orderBy(asc(users.id));
}

// Built per query, never once at import: the table is the dialect's (db/tables.ts), and the
// values its columns bind differ (SQLite's 1 and 0, PostgreSQL's booleans).
const activeHuman = () => and(eq(users.isActive, true), eq(users.isBot, false));

/** Active humans (no bots, no deactivated users), in no particular order. */
export async function listActiveHumans(db: Reader): Promise<User[]> {
  return await db.select().from(users).where(activeHuman());
}

/** listActiveHumans with only the ID and the join date of each: what slim presence needs. */
export async function listActiveHumanJoinDates(db: Reader): Promise<Array<Pick<User, "id" | "dateJoined">>> {
  return await db.select({ id: users.id, dateJoined: users.dateJoined }).from(users).where(activeHuman());
}

// ---- Queries and writes of the actions ----

/** IDs of every active account, bots included: who is told of an organization-wide change. */

/** Every active account's ID and role: who may hear of a change is decided from these. */
export async function activeUserRoles(db: Reader): Promise<Array<{ id: number; role: number }>> {
  return await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.isActive, true));
}

export async function activeUserIds(db: Reader): Promise<number[]> {
  return (await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.isActive, true)))
    .map((row) => row.id);
}

/** Users with these IDs, deactivated ones included; unknown IDs are left out. */
export async function findUsersByIds(db: Reader, ids: readonly number[]): Promise<User[]> {
  return await db.select().from(users).where(sql`${users.id} IN ${idList(ids)}`);
}

/** Users with these API e-mail addresses, deactivated ones included; unknown ones are left out. */
export async function findUsersByEmails(db: Reader, emails: readonly string[]): Promise<User[]> {
  return await db.select().from(users).where(sql`${users.email} IN ${textList(emails.map(normalizeEmail))}`);
}

/** ID and role of each of these users: what deciding which addresses they may see takes (the send path). */
export async function rolesOfUsers(db: Reader, ids: readonly number[]): Promise<Array<Pick<User, "id" | "role">>> {
  return await db.select({ id: users.id, role: users.role }).from(users).where(inArray(users.id, [...ids]));
}

/** Changes columns of an account (its e-mail address stays as created: insertUser normalizes it). */
export async function updateUser(tx: Tx, id: number, changes: Partial<Omit<NewUser, "id" | "email">>) {
  await tx.update(users).set(changes).where(eq(users.id, id));
}

/** Of these user IDs, those of active accounts. */
export async function activeUserIdsAmong(db: Reader, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, userIds), eq(users.isActive, true)));
  return new Set(rows.map((row) => row.id));
}

/** The active human owner who joined first. */
export async function firstActiveOwner(db: Reader): Promise<User | undefined> {
  return (await db
    .select()
    .from(users)
    .where(and(eq(users.role, Role.OWNER), eq(users.isActive, true), eq(users.isBot, false)))
    .orderBy(asc(users.id)))[0];
}
