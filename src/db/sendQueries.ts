import { and, eq, sql } from "drizzle-orm";
import { SystemGroup } from "../model/roles";
import { type Channel } from "./channels";
import { type Message, type NewMessage } from "./messages";
import { cachedUntilChange } from "./caches";
import { dialect } from "./dialect";
import { nextMessageId, pipelined } from "./pipelining";
import { perConnection, prepared, rawStatement } from "./prepared";
import { messageInserted } from "./searchIndex";
import type { Reader, SendTx } from "./types";
import { channels, subscriptions, userGroups, users } from "./tables";

/**
 * The queries every channel message runs, prepared once per connection (db/prepared.ts):
 * sending is the hot path, and drizzle building a query's SQL costs more than SQLite running it.
 * Each runs on the connection of the handle it is given, so inside a send it sees and joins
 * that transaction.
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
// one cell per connection.
const everyoneGroupCell = perConnection(() => ({ id: undefined as number | undefined }));

/** The ID of role:everyone, which every user is in: permissions set to it need no lookup. */
export async function everyoneGroupId(db: Reader): Promise<number> {
  const cell = everyoneGroupCell(db);
  return (cell.id ??= (await systemGroupQuery(db).get({ name: SystemGroup.EVERYONE }))?.id ?? -1);
}

const channelByNameKey = prepared((db) => db.select().from(channels).where(eq(channels.nameKey, placeholder("key"))).prepare());
const channelById = prepared((db) => db.select().from(channels).where(eq(channels.id, placeholder("id"))).prepare());

// Only channels found are kept, so a stream of unknown names cannot grow it. A channel's first
// message changes its row inside a send: setFirstMessageId (db/channels.ts) drops this.
const channelsForSending = cachedUntilChange("channelsForSending", (db) => new Map<string, Readonly<Channel>>());
const MAX_CACHED_CHANNELS = 10_000;

export async function channelForSending(db: Reader, by: { name: string } | { id: number }): Promise<Readonly<Channel> | undefined> {
  const known = channelsForSending(db);
  const key = "name" in by ? `name ${by.name.toLowerCase()}` : `id ${by.id}`;
  let channel = known.get(key);
  if (channel === undefined) {
    channel = await ("name" in by ? channelByNameKey(db).get({ key: by.name.toLowerCase() }) : channelById(db).get({ id: by.id }));
    if (channel === undefined) return undefined;
    if (known.size >= MAX_CACHED_CHANNELS) known.clear();
    known.set(key, Object.freeze(channel));
  }
  return channel;
}

const subscribersQuery = prepared((db) =>
  db
    .select({ userId: subscriptions.userId, isMuted: subscriptions.isMuted })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.channelId, placeholder("channelId")), eq(subscriptions.active, true), eq(users.isActive, true)))
    .prepare(),
);

/** A channel's active subscribers who are active users: their IDs, and those who muted it. */
export interface Subscribers {
  readonly userIds: readonly number[];
  readonly mutedIds: ReadonlySet<number>;
}

// Every send needs its channel's subscribers; they change only in write() transactions.
const subscribersByChannel = cachedUntilChange("channelSubscribers", (db) => new Map<number, Subscribers>());

export async function channelSubscribers(db: Reader, channelId: number): Promise<Subscribers> {
  const known = subscribersByChannel(db);
  let subscribers = known.get(channelId);
  if (subscribers === undefined) {
    // Raw rows: drizzle's mapping of 50 rows into objects costs more than the query.
    const rows = (await subscribersQuery(db).values({ channelId })) as Array<[number, number | boolean]>;
    // SQLite gives the flag as 0 or 1, PostgreSQL as a boolean.
    subscribers = Object.freeze({ userIds: Object.freeze(rows.map(([userId]) => userId)), mutedIds: new Set(rows.filter(([, muted]) => muted === 1 || muted === true).map(([userId]) => userId)) });
    known.set(channelId, subscribers);
  }
  return subscribers;
}

const channelRecipientQuery = rawStatement<{ id: number }, [number]>("SELECT id FROM recipients WHERE channel_id = ?");
// A channel's recipient row never changes once made; it is kept like the channel itself.
const channelRecipientIds = cachedUntilChange("channelRecipients", (db) => new Map<number, number>());

export async function findChannelRecipientId(db: Reader, channelId: number): Promise<number | undefined> {
  const known = channelRecipientIds(db);
  let id = known.get(channelId);
  if (id === undefined) {
    id = (await channelRecipientQuery(db).values(channelId))[0]?.[0] as number | undefined;
    if (id !== undefined) known.set(channelId, id);
  }
  return id;
}

// Raw SQL: drizzle binds LIMIT as a parameter, and with a bound LIMIT this lookup took
// ~20 µs instead of ~2 µs inside a send's transaction.
const topicMessageQuery = rawStatement<{ found: number }, [number, string]>("SELECT 1 AS found FROM messages WHERE channel_id = ? AND topic_key = ? LIMIT 1");

// Topics known to have messages. Only a send makes a topic have messages, and sends keep these
// copies (db/caches.ts); what empties a topic (deleting or moving messages, deleting the topic)
// is a write(), which drops them, here and, through the bus, on the other nodes. Topics without
// messages are not kept: another node's send may start one at any moment.
const topicsWithMessages = cachedUntilChange("topicsWithMessages", () => new Set<string>());
const MAX_KNOWN_TOPICS = 100_000;
const topicEntry = (channelId: number, topicKey: string) => `${channelId}\u0000${topicKey}`;

export async function topicHasMessages(db: Reader, channelId: number, topicKey: string): Promise<boolean> {
  const known = topicsWithMessages(db);
  const entry = topicEntry(channelId, topicKey);
  if (known.has(entry)) return true;
  const found = (await topicMessageQuery(db).values(channelId, topicKey)).length > 0;
  if (found) remember(known, entry);
  return found;
}

function remember(known: Set<string>, entry: string) {
  if (known.size >= MAX_KNOWN_TOPICS) known.clear();
  known.add(entry);
}

type MessageValues = Required<Omit<NewMessage, "id" | "lastEditTime" | "lastMovedTime" | "editHistory">>;

// Raw SQL, and the row built from the values stored rather than read back: drizzle's
// RETURNING * maps all columns and fills every placeholder by name, a good part of the
// insert's cost on the hot path. SQLite stores the booleans as drizzle does, 0 or 1, and tells
// the new ID without a RETURNING; PostgreSQL takes booleans and says the ID with RETURNING.
const MESSAGE_COLUMNS = "recipient_id, channel_id, topic, topic_key, sender_id, content, rendered_content, client, date_sent, is_me_message, has_link, has_image, has_attachment";
const insertMessageStatement = rawStatement<never, Array<string | number | boolean | null>>(
  `INSERT INTO messages (${MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  `INSERT INTO messages (id, ${MESSAGE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
);

export async function insertMessage(tx: SendTx, values: MessageValues): Promise<Message> {
  const onPostgres = dialect() === "postgres";
  const flag = (value: boolean) => (onPostgres ? value : value ? 1 : 0);
  const statement = insertMessageStatement(tx);
  const params = [
    values.recipientId,
    values.channelId,
    values.topic,
    values.topicKey,
    values.senderId,
    values.content,
    values.renderedContent,
    values.client,
    values.dateSent,
    flag(values.isMeMessage),
    flag(values.hasLink),
    flag(values.hasImage),
    flag(values.hasAttachment),
  ];
  let id: number;
  if (onPostgres) {
    id = await nextMessageId(tx);
    pipelined(tx, statement.run(id, ...params) as Promise<unknown>);
  } else id = Number((statement.run(...params) as { lastInsertRowid: number | bigint }).lastInsertRowid);
  messageInserted(tx, id);
  if (values.channelId !== null) remember(topicsWithMessages(tx), topicEntry(values.channelId, values.topicKey));
  return { id, ...values, lastEditTime: null, lastMovedTime: null, editHistory: null };
}

// One row per statement on SQLite, where a statement costs microseconds; on PostgreSQL, where
// each is a round trip, all rows in one, as arrays.
const insertFlagsStatement = rawStatement<never, [number, number, number, number]>("INSERT INTO message_flags (user_id, message_id, recipient_id, flags) VALUES (?, ?, ?, ?)");
const insertFlagRowsStatement = rawStatement<never, [number[], number[], number[], number[]]>(
  "",
  "INSERT INTO message_flags (user_id, message_id, recipient_id, flags) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[])",
);

export async function insertMessageFlags(tx: SendTx, rows: Array<{ userId: number; messageId: number; recipientId: number; flags: number }>) {
  if (rows.length === 0) return;
  if (dialect() === "postgres") {
    pipelined(tx, insertFlagRowsStatement(tx).run(rows.map((row) => row.userId), rows.map((row) => row.messageId), rows.map((row) => row.recipientId), rows.map((row) => row.flags)) as Promise<unknown>);
    return;
  }
  const insert = insertFlagsStatement(tx);
  for (const row of rows) insert.run(row.userId, row.messageId, row.recipientId, row.flags);
}
