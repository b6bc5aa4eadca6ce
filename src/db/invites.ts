import { and, asc, eq, isNotNull, lte, sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Reader, Tx } from "./types";
import { users } from "./users";

/**
 * Invitations (spec 2.10, 4.8, 4.12): e-mail invitations, usable once by one address, and
 * reusable links, usable by anyone until revoked or expired. One table, one ID space, so an ID
 * names one invitation whatever its kind (the API also tells the kind by is_multiuse).
 *
 * A row stays after it stops being usable, with its status saying why, so that a link that
 * expired or was revoked can say so rather than "not found".
 */
export type InviteStatus = "pending" | "accepted" | "revoked" | "expired";

export const invites = sqliteTable(
  "invites",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    isMultiuse: integer("is_multiuse", { mode: "boolean" }).notNull(),
    /** The invited address (lower-cased); null for a reusable link. */
    email: text("email"),
    /** The secret in the link; whoever holds it may sign up. */
    key: text("key").notNull().unique(),
    invitedById: integer("invited_by_id")
      .notNull()
      .references(() => users.id),
    invitedAs: integer("invited_as").notNull(),
    streamIds: text("stream_ids", { mode: "json" }).$type<number[]>().notNull(),
    groupIds: text("group_ids", { mode: "json" }).$type<number[]>().notNull(),
    includeRealmDefaultSubscriptions: integer("include_realm_default_subscriptions", { mode: "boolean" }).notNull(),
    notifyReferrerOnJoin: integer("notify_referrer_on_join", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
    /** UNIX seconds; null: never expires. */
    expiresAt: integer("expires_at"),
    status: text("status").$type<InviteStatus>().notNull().default("pending"),
    /** For an e-mail invitation, the account made with it. */
    acceptedUserId: integer("accepted_user_id").references(() => users.id),
  },
  (table) => [index("invites_status_expiry").on(table.status, table.expiresAt), index("invites_email").on(table.email)],
);

export type Invite = typeof invites.$inferSelect;
export type NewInvite = typeof invites.$inferInsert;

/** Pending and not past its expiry: what the list shows and a link accepts. */
export const isUsable = (invite: Invite, at: number) => invite.status === "pending" && (invite.expiresAt === null || invite.expiresAt > at);

export async function insertInvite(tx: Tx, values: NewInvite): Promise<Invite> {
  return tx.insert(invites).values(values).returning().get();
}

export async function findInviteById(db: Reader, id: number): Promise<Invite | undefined> {
  return db.select().from(invites).where(eq(invites.id, id)).get();
}

export async function findInviteByKey(db: Reader, key: string): Promise<Invite | undefined> {
  return db.select().from(invites).where(eq(invites.key, key)).get();
}

/** Pending invitations not yet past expiry, oldest first; `invitedById` narrows to one creator. */
export async function listUsableInvites(db: Reader, at: number, invitedById?: number): Promise<Invite[]> {
  const usable = and(eq(invites.status, "pending"), sql`(${invites.expiresAt} IS NULL OR ${invites.expiresAt} > ${at})`);
  return db
    .select()
    .from(invites)
    .where(invitedById === undefined ? usable : and(usable, eq(invites.invitedById, invitedById)))
    .orderBy(asc(invites.id))
    .all();
}

export async function setInviteStatus(tx: Tx, id: number, status: InviteStatus, acceptedUserId: number | null = null) {
  tx.update(invites).set({ status, acceptedUserId }).where(eq(invites.id, id)).run();
}

/** Pending e-mail invitations to this address: one sign-up makes them all spent. */
export async function pendingEmailInvitesTo(db: Reader, email: string): Promise<Invite[]> {
  return db
    .select()
    .from(invites)
    .where(and(eq(invites.status, "pending"), eq(invites.isMultiuse, false), eq(invites.email, email)))
    .all();
}

/** Pending invitations whose expiry has passed, for the sweep to mark expired. */
export async function overdueInvites(db: Reader, at: number, limit: number): Promise<Invite[]> {
  return db
    .select()
    .from(invites)
    .where(and(eq(invites.status, "pending"), isNotNull(invites.expiresAt), lte(invites.expiresAt, at)))
    .orderBy(asc(invites.id))
    .limit(limit)
    .all();
}

/** The outbox item of an invitation e-mail (db/outbox.ts), captured at invitation time. */
export interface InvitationEmailPayload {
  invite_id: number;
  to: string;
  inviter_name: string;
  realm_name: string;
  realm_url: string;
  link: string;
  /** UNIX seconds; null: the link never expires. */
  expires_at: number | null;
}
