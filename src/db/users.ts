import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { Role } from "../model/roles";
import type { UserSettings } from "../model/userSettings";
import { prepared } from "./prepared";
import { idList } from "./sqlLists";
import type { Reader, Tx } from "./types";

/** Humans and bots alike: a bot is a user with a bot_type and usually an owner. */
export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** API e-mail, stored lower-cased; unique across the organization. */
    email: text("email").notNull().unique(),
    /** Where mail is delivered; null for bots. */
    deliveryEmail: text("delivery_email"),
    fullName: text("full_name").notNull(),
    role: integer("role").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    isBot: integer("is_bot", { mode: "boolean" }).notNull().default(false),
    /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded; null for humans. */
    botType: integer("bot_type"),
    botOwnerId: integer("bot_owner_id").references((): AnySQLiteColumn => users.id),
    /** Built-in bots such as the notification bot; no one owns or deactivates them. */
    isSystemBot: integer("is_system_bot", { mode: "boolean" }).notNull().default(false),
    apiKey: text("api_key").notNull().unique(),
    /** argon2id via Bun.password; null for bots and users who never set one. */
    passwordHash: text("password_hash"),
    timezone: text("timezone").notNull().default(""),
    dateJoined: integer("date_joined").notNull(),
    avatarVersion: integer("avatar_version").notNull().default(1),
    /** The uploaded avatar's file (db/fileStore.ts, by content hash); null: the gravatar. */
    avatarFile: text("avatar_file"),
    settings: text("settings", { mode: "json" }).$type<UserSettings>().notNull(),
  },
  (table) => [index("users_bot_owner").on(table.botOwnerId)],
);

export type User = typeof users.$inferSelect;

/** Configuration of outgoing-webhook and embedded bots (one row per bot). */
export const botServices = sqliteTable("bot_services", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  botId: integer("bot_id")
    .notNull()
    .unique()
    .references(() => users.id),
  baseUrl: text("base_url").notNull(),
  /** Fixed per bot; sent in every outgoing notification so the receiver can trust it (spec 5.5). */
  token: text("token").notNull(),
  /** 1 native format, 2 Slack-compatible. */
  interface: integer("interface").notNull().default(1),
});

export type BotService = typeof botServices.$inferSelect;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

// Every authenticated request and most actions look users up; see prepared.ts for why these
// are compiled once.
const userById = prepared((db) => db.select().from(users).where(eq(users.id, sql.placeholder("id"))).prepare());
const userByEmail = prepared((db) => db.select().from(users).where(eq(users.email, sql.placeholder("email"))).prepare());

export function findUserById(db: Reader, id: number): User | undefined {
  return userById(db).get({ id }) as User | undefined;
}

export function findUserByEmail(db: Reader, email: string): User | undefined {
  return userByEmail(db).get({ email: normalizeEmail(email) }) as User | undefined;
}

export function listUsers(db: Reader): User[] {
  return db.select().from(users).orderBy(asc(users.id)).all();
}

export function listBotsOwnedBy(db: Reader, ownerId: number, options: { activeOnly?: boolean } = {}): User[] {
  const owned = and(eq(users.botOwnerId, ownerId), eq(users.isBot, true));
  return db
    .select()
    .from(users)
    .where(options.activeOnly ? and(owned, eq(users.isActive, true)) : owned)
    .orderBy(asc(users.id))
    .all();
}

/** Active human organization administrators and owners. */
export function activeAdministratorIds(db: Reader): number[] {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(lte(users.role, Role.ADMINISTRATOR), eq(users.isActive, true), eq(users.isBot, false)))
    .all()
    .map((row) => row.id);
}

/** An active user or bot with this full name, compared case-insensitively. */
export function findActiveUserByFullName(db: Reader, fullName: string): User | undefined {
  return db
    .select()
    .from(users)
    .where(and(sql`lower(${users.fullName}) = lower(${fullName})`, eq(users.isActive, true)))
    .get();
}

export function countActiveOwners(db: Reader): number {
  const row = db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.role, Role.OWNER), eq(users.isActive, true), eq(users.isBot, false)))
    .get();
  return row?.n ?? 0;
}

export function findBotService(db: Reader, botId: number): BotService | undefined {
  return db.select().from(botServices).where(eq(botServices.botId, botId)).get();
}

export function insertBotService(tx: Tx, values: typeof botServices.$inferInsert): BotService {
  return tx.insert(botServices).values(values).returning().get();
}

export type NewUser = typeof users.$inferInsert;

export function insertUser(tx: Tx, values: NewUser): User {
  return tx
    .insert(users)
    .values({ ...values, email: normalizeEmail(values.email) })
    .returning()
    .get();
}

export function setApiKey(tx: Tx, userId: number, apiKey: string) {
  tx.update(users).set({ apiKey }).where(eq(users.id, userId)).run();
}

export function setUserActive(tx: Tx, userId: number, isActive: boolean) {
  tx.update(users).set({ isActive }).where(eq(users.id, userId)).run();
}

/** How many people (bots left out) have an active account. */
export function countActiveHumans(db: Reader): number {
  return db.select({ id: users.id }).from(users).where(and(eq(users.isActive, true), eq(users.isBot, false))).all().length;
}

/** Every account with this role (active or not), with when it joined. */
export function accountsWithRole(db: Reader, role: Role): Array<Pick<User, "id" | "dateJoined" | "isActive">> {
  return db.select({ id: users.id, dateJoined: users.dateJoined, isActive: users.isActive }).from(users).where(eq(users.role, role)).all();
}

/** The settings of these users (unknown IDs left out). */
export function settingsOfUsers(db: Reader, userIds: number[]): Array<Pick<User, "id" | "settings">> {
  return db.select({ id: users.id, settings: users.settings }).from(users).where(inArray(users.id, userIds)).all();
}

/** The bots of the organization, system bots aside, oldest first: of one owner, or all of them. Deactivated ones included. */
export function listRealmBots(db: Reader, options: { ownerId?: number } = {}): User[] {
  const owned = options.ownerId === undefined ? undefined : eq(users.botOwnerId, options.ownerId);
  return db
    .select()
    .from(users)
    .where(and(eq(users.isBot, true), eq(users.isSystemBot, false), owned))
    .orderBy(asc(users.id))
    .all();
}

const activeHuman = and(eq(users.isActive, true), eq(users.isBot, false));

/** Active humans (no bots, no deactivated users), in no particular order. */
export function listActiveHumans(db: Reader): User[] {
  return db.select().from(users).where(activeHuman).all();
}

/** listActiveHumans with only the ID and the join date of each: what slim presence needs. */
export function listActiveHumanJoinDates(db: Reader): Array<Pick<User, "id" | "dateJoined">> {
  return db.select({ id: users.id, dateJoined: users.dateJoined }).from(users).where(activeHuman).all();
}

// ---- Queries and writes of the actions ----

/** IDs of every active account, bots included: who is told of an organization-wide change. */

/** Every active account's ID and role: who may hear of a change is decided from these. */
export function activeUserRoles(db: Reader): Array<{ id: number; role: number }> {
  return db.select({ id: users.id, role: users.role }).from(users).where(eq(users.isActive, true)).all();
}

export function activeUserIds(db: Reader): number[] {
  return db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.isActive, true))
    .all()
    .map((row) => row.id);
}

/** Users with these IDs, deactivated ones included; unknown IDs are left out. */
export function findUsersByIds(db: Reader, ids: readonly number[]): User[] {
  return db.select().from(users).where(sql`${users.id} IN ${idList(ids)}`).all();
}

/** Users with these API e-mail addresses, deactivated ones included; unknown ones are left out. */
export function findUsersByEmails(db: Reader, emails: readonly string[]): User[] {
  return db.select().from(users).where(sql`${users.email} IN ${idList(emails.map(normalizeEmail))}`).all();
}

/** ID and role of each of these users: what deciding which addresses they may see takes (the send path). */
export function rolesOfUsers(db: Reader, ids: readonly number[]): Array<Pick<User, "id" | "role">> {
  return db.select({ id: users.id, role: users.role }).from(users).where(inArray(users.id, [...ids])).all();
}

/** Changes columns of an account (its e-mail address stays as created: insertUser normalizes it). */
export function updateUser(tx: Tx, id: number, changes: Partial<Omit<NewUser, "id" | "email">>) {
  tx.update(users).set(changes).where(eq(users.id, id)).run();
}

/** Of these user IDs, those of active accounts. */
export function activeUserIdsAmong(db: Reader, userIds: number[]): Set<number> {
  if (userIds.length === 0) return new Set();
  const rows = db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, userIds), eq(users.isActive, true)))
    .all();
  return new Set(rows.map((row) => row.id));
}

/** The active human owner who joined first. */
export function firstActiveOwner(db: Reader): User | undefined {
  return db
    .select()
    .from(users)
    .where(and(eq(users.role, Role.OWNER), eq(users.isActive, true), eq(users.isBot, false)))
    .orderBy(asc(users.id))
    .get();
}
