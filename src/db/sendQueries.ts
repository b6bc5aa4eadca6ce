import type { Database } from "bun:sqlite";
import { and, eq, sql } from "drizzle-orm";
import { SystemGroup } from "../model/roles";
import { type Channel, channels, subscriptions } from "./channels";
import { userGroups } from "./groups";
import { type Message, messageFlags, messages, type NewMessage, recipients } from "./messages";
import { untilNextCommit } from "./generation";
import { prepared } from "./prepared";
import type { Reader } from "./types";
import { users } from "./users";

/**
 * The queries every channel message runs, prepared once (db/prepared.ts): sending is the hot
 * path, and drizzle building a query's SQL costs more than SQLite running it. They run on the
 * one connection, so inside a write() they see and join its transaction; `db` is taken only to
 * say where they run.
 */

const placeholder = sql.placeholder;

const systemGroupQuery = prepared((db) =>
  db
    .select({ id: userGroups.id })
    .from(userGroups)
    .where(and(eq(userGroups.isSystemGroup, true), eq(userGroups.name, placeholder("name"))))
    .prepare(),
);
// System groups are created with the organization and never replaced: their IDs are kept,
// one cell per open database.
const everyoneGroupCell = prepared(() => ({ id: undefined as number | undefined }));

/** The ID of role:everyone, which every user is in: permissions set to it need no lookup. */
export function everyoneGroupId(_db: Reader): number {
  const cell = everyoneGroupCell();
  return (cell.id ??= systemGroupQuery().get({ name: SystemGroup.EVERYONE })?.id ?? -1);
}

const channelByNameKey = prepared((db) => db.select().from(channels).where(eq(channels.nameKey, placeholder("key"))).prepare());
const channelById = prepared((db) => db.select().from(channels).where(eq(channels.id, placeholder("id"))).prepare());

export function channelForSending(_db: Reader, by: { name: string } | { id: number }): Channel | undefined {
  return "name" in by ? channelByNameKey().get({ key: by.name.toLowerCase() }) : channelById().get({ id: by.id });
}

const subscribersQuery = prepared((db) =>
  db
    .select({ userId: subscriptions.userId, isMuted: subscriptions.isMuted })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.channelId, placeholder("channelId")), eq(subscriptions.active, true), eq(users.isActive, true)))
    .prepare(),
);

type Subscribers = ReadonlyArray<Readonly<{ userId: number; isMuted: boolean }>>;

// Every send needs its channel's subscribers, and they change only in structural
// transactions, which drop this cache (db/generation.ts).
const subscribersByChannel = untilNextCommit(() => new Map<number, Subscribers>());

/** A channel's active subscribers who are active users, with whether each muted it. */
export function channelSubscribers(_db: Reader, channelId: number): Subscribers {
  const known = subscribersByChannel();
  let subscribers = known.get(channelId);
  if (subscribers === undefined) {
    // Raw rows: drizzle's mapping of 50 rows into objects costs more than the query.
    subscribers = Object.freeze((subscribersQuery().values({ channelId }) as Array<[number, number]>).map(([userId, isMuted]) => Object.freeze({ userId, isMuted: isMuted === 1 })));
    known.set(channelId, subscribers);
  }
  return subscribers;
}

const channelRecipientQuery = prepared((db) => db.select({ id: recipients.id }).from(recipients).where(eq(recipients.channelId, placeholder("channelId"))).prepare());

export const findChannelRecipientId = (_db: Reader, channelId: number): number | undefined => channelRecipientQuery().get({ channelId })?.id;

// Raw SQL: drizzle binds LIMIT as a parameter, and with a bound LIMIT this lookup took
// ~20 µs instead of ~2 µs inside a send's transaction.
const topicMessageQuery = prepared((db) => (db as unknown as { $client: Database }).$client.query<{ found: number }, [number, string]>("SELECT 1 AS found FROM messages WHERE channel_id = ? AND topic_key = ? LIMIT 1"));

export const topicHasMessages = (_db: Reader, channelId: number, topicKey: string) => topicMessageQuery().get(channelId, topicKey) !== null;

type MessageValues = Required<Omit<NewMessage, "id" | "lastEditTime" | "lastMovedTime" | "editHistory">>;
const MESSAGE_COLUMNS: Array<keyof MessageValues> = [
  "recipientId",
  "channelId",
  "topic",
  "topicKey",
  "senderId",
  "content",
  "renderedContent",
  "client",
  "dateSent",
  "isMeMessage",
  "hasLink",
  "hasImage",
  "hasAttachment",
];

const insertMessageQuery = prepared((db) =>
  db
    .insert(messages)
    .values(Object.fromEntries(MESSAGE_COLUMNS.map((column) => [column, placeholder(column)])) as unknown as NewMessage)
    .returning()
    .prepare(),
);

export const insertMessage = (_db: Reader, values: MessageValues): Message => insertMessageQuery().get(values) as Message;

const insertFlagsQuery = prepared((db) =>
  db
    .insert(messageFlags)
    .values({ userId: placeholder("userId"), messageId: placeholder("messageId"), recipientId: placeholder("recipientId"), flags: placeholder("flags") })
    .prepare(),
);

export function insertMessageFlags(_db: Reader, rows: Array<{ userId: number; messageId: number; recipientId: number; flags: number }>) {
  const insert = insertFlagsQuery();
  for (const row of rows) insert.run(row);
}
