import { and, asc, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { sumOf, totalOf } from "./dialectSql";
import { type Message } from "./messages";
import type { Reader, SendTx, Tx } from "./types";
import { attachmentMessages, attachments, messages, realmEmoji, users } from "./tables";

export type Attachment = typeof attachments.$inferSelect;

/** A message that links an upload, as the API lists it under the upload. */
export interface LinkingMessage {
  id: number;
  /** Seconds, as messages store it. */
  dateSent: number;
}

export async function insertAttachment(tx: Tx, values: typeof attachments.$inferInsert): Promise<Attachment> {
  return (await tx.insert(attachments).values(values).returning())[0];
}

export async function findAttachmentById(db: Reader, id: number): Promise<Attachment | undefined> {
  return (await db.select().from(attachments).where(eq(attachments.id, id)))[0];
}

export async function findAttachmentByPathId(db: Reader, pathId: string): Promise<Attachment | undefined> {
  return (await db.select().from(attachments).where(eq(attachments.pathId, pathId)))[0];
}

export async function findAttachmentsByPathIds(db: Reader, pathIds: string[]): Promise<Attachment[]> {
  return pathIds.length === 0 ? [] : await db.select().from(attachments).where(inArray(attachments.pathId, pathIds));
}

export async function listAttachmentsOf(db: Reader, ownerId: number): Promise<Attachment[]> {
  return await db.select().from(attachments).where(eq(attachments.ownerId, ownerId)).orderBy(asc(attachments.id));
}

/** The bytes every upload of the organization takes (each upload counted, as the reference counts them). */
export async function uploadSpaceUsed(db: Reader): Promise<number> {
  return (await db.select({ total: totalOf(attachments.size) }).from(attachments))[0]!.total;
}

/**
 * The person an upload counts against for the per-person quota: whoever uploaded it, or for a
 * bot, its owner (so making bots gives nobody more room).
 */
const quotaHolderOf = () => sql<number>`coalesce(case when ${users.isBot} then ${users.botOwnerId} end, ${users.id})`;

/** The bytes the uploads counted against one person take: theirs and their bots'. */
export async function uploadSpaceUsedBy(db: Reader, holderId: number): Promise<number> {
  return (await db
    .select({ total: totalOf(attachments.size) })
    .from(attachments)
    .innerJoin(users, eq(users.id, attachments.ownerId))
    .where(or(eq(users.id, holderId), and(eq(users.botOwnerId, holderId), eq(users.isBot, true)))))[0]!.total;
}

/** The people whose uploads (with their bots') take the most, most first. */
export async function uploadSpaceByPerson(db: Reader, limit: number): Promise<Array<{ userId: number; bytes: number }>> {
  const bytes = sumOf(attachments.size) as SQL<number>;
  const quotaHolder = quotaHolderOf();
  return await db.select({ userId: quotaHolder, bytes }).from(attachments).innerJoin(users, eq(users.id, attachments.ownerId)).groupBy(quotaHolder).orderBy(desc(bytes), asc(quotaHolder)).limit(limit);
}

/** The messages linking each of these uploads, oldest first. */
export async function linkingMessages(db: Reader, attachmentIds: number[]): Promise<Map<number, LinkingMessage[]>> {
  const found = new Map<number, LinkingMessage[]>(attachmentIds.map((id) => [id, []]));
  if (attachmentIds.length === 0) return found;
  const rows = await db
    .select({ attachmentId: attachmentMessages.attachmentId, id: messages.id, dateSent: messages.dateSent })
    .from(attachmentMessages)
    .innerJoin(messages, eq(messages.id, attachmentMessages.messageId))
    .where(inArray(attachmentMessages.attachmentId, attachmentIds))
    .orderBy(asc(messages.id));
  for (const row of rows) found.get(row.attachmentId)?.push({ id: row.id, dateSent: row.dateSent });
  return found;
}

/** The messages (whole rows) linking one upload, for deciding who may download it. */
export async function messagesLinking(db: Reader, attachmentId: number): Promise<Message[]> {
  return (await db
    .select({ message: messages })
    .from(attachmentMessages)
    .innerJoin(messages, eq(messages.id, attachmentMessages.messageId))
    .where(eq(attachmentMessages.attachmentId, attachmentId)))
    .map((row) => row.message);
}

/** The uploads these messages link. */
export async function attachmentsLinkedTo(db: Reader, messageIds: number[]): Promise<Attachment[]> {
  if (messageIds.length === 0) return [];
  const ids = await db.selectDistinct({ id: attachmentMessages.attachmentId }).from(attachmentMessages).where(inArray(attachmentMessages.messageId, messageIds));
  return ids.length === 0 ? [] : await db.select().from(attachments).where(inArray(attachments.id, ids.map((row) => row.id)));
}

/** Links uploads to a message; runs inside a message send, so it takes a SendTx (no cache holds these rows). */
export async function linkAttachments(tx: SendTx, messageId: number, attachmentIds: number[]) {
  if (attachmentIds.length === 0) return;
  await tx.insert(attachmentMessages)
    .values(attachmentIds.map((attachmentId) => ({ attachmentId, messageId })))
    .onConflictDoNothing();
}

export async function unlinkAttachments(tx: Tx, messageId: number, attachmentIds: number[]) {
  if (attachmentIds.length === 0) return;
  await tx.delete(attachmentMessages).where(and(eq(attachmentMessages.messageId, messageId), inArray(attachmentMessages.attachmentId, attachmentIds)));
}

/** Of these uploads, the ones no message links any more. */
export async function unlinkedAttachmentIds(db: Reader, attachmentIds: number[]): Promise<Set<number>> {
  if (attachmentIds.length === 0) return new Set();
  const linked = new Set((await db.selectDistinct({ id: attachmentMessages.attachmentId }).from(attachmentMessages).where(inArray(attachmentMessages.attachmentId, attachmentIds))).map((row) => row.id));
  return new Set(attachmentIds.filter((id) => !linked.has(id)));
}

export async function deleteAttachmentRow(tx: Tx, id: number) {
  await tx.delete(attachmentMessages).where(eq(attachmentMessages.attachmentId, id));
  await tx.delete(attachments).where(eq(attachments.id, id));
}

/** Whether any row (an upload, an avatar or a custom emoji) still points at these bytes. */
export async function isStoredFileInUse(db: Reader, sha256: string): Promise<boolean> {
  const upload = (await db.select({ id: attachments.id }).from(attachments).where(eq(attachments.sha256, sha256)).limit(1))[0];
  if (upload) return true;
  if ((await db.select({ id: users.id }).from(users).where(eq(users.avatarFile, sha256)).limit(1))[0]) return true;
  return (await db.select({ id: realmEmoji.id }).from(realmEmoji).where(eq(realmEmoji.sha256, sha256)).limit(1))[0] !== undefined;
}
