import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Reader } from "./types";
import { type User } from "./users";
import { messages, reactions, userGroups, users } from "./tables";

/**
 * Who a message being sent names: the users and groups its text mentions (looked up before
 * rendering, by the names and IDs the text holds), its direct recipients, and the participants
 * of its topic, whom a topic wildcard mention reaches.
 */

const lowered = (names: string[]) => names.map((name) => name.toLowerCase());

/** Users whose full name is one of these (without regard to case), or whose ID is one of these. */
export async function usersByFullNamesOrIds(db: Reader, names: string[], ids: number[]): Promise<Array<Pick<User, "id" | "fullName" | "isActive">>> {
  if (names.length === 0 && ids.length === 0) return [];
  return await db
    .select({ id: users.id, fullName: users.fullName, isActive: users.isActive })
    .from(users)
    .where(or(inArray(sql`lower(${users.fullName})`, lowered(names)), inArray(users.id, ids)));
}

/**
 * Named, non-system groups with one of these names (without regard to case): role:* groups are
 * not mentionable, since mentioning them would reach whole roles past the organization's
 * wildcard-mention policy.
 */
export async function mentionableGroupsByNames(db: Reader, names: string[]): Promise<Array<{ id: number; name: string; deactivated: boolean }>> {
  if (names.length === 0) return [];
  return await db
    .select({ id: userGroups.id, name: sql<string>`${userGroups.name}`, deactivated: userGroups.deactivated })
    .from(userGroups)
    .where(and(inArray(sql`lower(${userGroups.name})`, lowered(names)), eq(userGroups.isSystemGroup, false)));
}

/** The users with these IDs (missing ones left out). */
export async function usersWithIds(db: Reader, ids: number[]): Promise<User[]> {
  return await db.select().from(users).where(inArray(users.id, ids));
}

/** Who sent or reacted to a message in a channel's topic (by its key), repeats possible. */
export async function topicSenderAndReactorIds(db: Reader, channelId: number, topicKey: string): Promise<number[]> {
  const inTopic = and(eq(messages.channelId, channelId), eq(messages.topicKey, topicKey));
  const senders = await db.selectDistinct({ id: messages.senderId }).from(messages).where(inTopic);
  const reactors = await db.selectDistinct({ id: reactions.userId }).from(reactions).innerJoin(messages, eq(messages.id, reactions.messageId)).where(inTopic);
  return [...senders, ...reactors].map((row) => row.id);
}
