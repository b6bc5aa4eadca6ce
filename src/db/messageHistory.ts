import { sql } from "drizzle-orm";
import { dialect } from "./dialect";
import { sqlRows } from "./rawSql";
import { idList } from "./sqlLists";
import { type Message } from "./messages";
import { prepared } from "./prepared";
import type { Reader } from "./types";
import { type User } from "./users";
import { messages, users } from "./tables";

/**
 * The rows message objects are built from, for a page of history at once: a fixed handful of
 * queries however many messages, senders, channels and conversations.
 */

// The history path's row fetches, compiled once: the query builder costs more per call than
// these lookups take to run. Lists of IDs travel as one JSON parameter, read as db/sqlLists.ts
// reads them; the condition is built when the query is compiled, once the dialect is known.
const inJson = (column: typeof messages.id | typeof users.id) =>
  dialect() === "postgres"
    ? sql`${column} IN (SELECT jsonb_array_elements_text(${sql.placeholder("ids")}::text::jsonb)::bigint)`
    : sql`${column} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`;
const messagesWithIds = prepared((db) => db.select().from(messages).where(inJson(messages.id)).prepare());
const usersWithIds = prepared((db) => db.select().from(users).where(inJson(users.id)).prepare());

/** The messages with these IDs, in ID order (missing ones left out). */
export async function messagesByIds(db: Reader, ids: number[]): Promise<Message[]> {
  if (ids.length === 0) return [];
  return (await messagesWithIds(db).all({ ids: JSON.stringify(ids) })).sort((a, b) => a.id - b.id);
}

/** What a page of messages names besides the messages: their senders, channels and conversations. */
export interface MessagePageRows {
  /** Names of the messages' channels, by ID. */
  channelNames: Map<number, string>;
  /** Members of the messages' direct conversations, by recipient ID. */
  participants: Map<number, User[]>;
  /** The senders and the conversations' members, by ID. */
  usersById: Map<number, User>;
}

export async function messagePageRows(db: Reader, list: Message[]): Promise<MessagePageRows> {
  const channelIds = [...new Set(list.flatMap((m) => (m.channelId === null ? [] : [m.channelId])))];
  const channelNames = new Map((await sqlRows<{ id: number; name: string }>(db, sql`SELECT id, name FROM channels WHERE id IN ${idList(channelIds)}`)).map((row) => [row.id, row.name]));
  const conversationIds = [...new Set(list.filter((m) => m.channelId === null).map((m) => m.recipientId))];
  const members = await sqlRows<{ recipient_id: number; user_id: number }>(db, sql`SELECT recipient_id, user_id FROM recipient_users WHERE recipient_id IN ${idList(conversationIds)}`);
  const userIds = [...new Set([...list.map((m) => m.senderId), ...members.map((row) => row.user_id)])];
  const usersById = new Map((await usersWithIds(db).all({ ids: JSON.stringify(userIds) })).map((user) => [user.id, user]));
  const participants = new Map<number, User[]>();
  for (const row of members) (participants.get(row.recipient_id) ?? participants.set(row.recipient_id, []).get(row.recipient_id)!).push(usersById.get(row.user_id)!);
  return { channelNames, participants, usersById };
}
