import { and, asc, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import type { InviteStatus } from "./columnTypes";
import { invites } from "./tables";
export type { InviteStatus, InvitationEmailPayload } from "./columnTypes";

export type Invite = typeof invites.$inferSelect;
export type NewInvite = typeof invites.$inferInsert;

/** Pending and not past its expiry: what the list shows and a link accepts. */
export const isUsable = (invite: Invite, at: number) => invite.status === "pending" && (invite.expiresAt === null || invite.expiresAt > at);

export async function insertInvite(tx: Tx, values: NewInvite): Promise<Invite> {
  return (await tx.insert(invites).values(values).returning())[0];
}

export async function findInviteById(db: Reader, id: number): Promise<Invite | undefined> {
  return (await db.select().from(invites).where(eq(invites.id, id)))[0];
}

export async function findInviteByKey(db: Reader, key: string): Promise<Invite | undefined> {
  return (await db.select().from(invites).where(eq(invites.key, key)))[0];
}

/** Pending invitations not yet past expiry, oldest first; `invitedById` narrows to one creator. */
export async function listUsableInvites(db: Reader, at: number, invitedById?: number): Promise<Invite[]> {
  const usable = and(eq(invites.status, "pending"), sql`(${invites.expiresAt} IS NULL OR ${invites.expiresAt} > ${at})`);
  return await db
    .select()
    .from(invites)
    .where(invitedById === undefined ? usable : and(usable, eq(invites.invitedById, invitedById)))
    .orderBy(asc(invites.id));
}

export async function setInviteStatus(tx: Tx, id: number, status: InviteStatus, acceptedUserId: number | null = null) {
  await tx.update(invites).set({ status, acceptedUserId }).where(eq(invites.id, id));
}

/** Pending e-mail invitations to this address: one sign-up makes them all spent. */
export async function pendingEmailInvitesTo(db: Reader, email: string): Promise<Invite[]> {
  return await db
    .select()
    .from(invites)
    .where(and(eq(invites.status, "pending"), eq(invites.isMultiuse, false), eq(invites.email, email)));
}

/** Pending invitations whose expiry has passed, for the sweep to mark expired. */
export async function overdueInvites(db: Reader, at: number, limit: number): Promise<Invite[]> {
  return await db
    .select()
    .from(invites)
    .where(and(eq(invites.status, "pending"), isNotNull(invites.expiresAt), lte(invites.expiresAt, at)))
    .orderBy(asc(invites.id))
    .limit(limit);
}

