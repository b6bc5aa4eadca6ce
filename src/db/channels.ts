import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { userGroups } from "./groups";
import type { Reader } from "./types";
import { users } from "./users";

const groupSetting = (name: string) =>
  integer(name)
    .notNull()
    .references(() => userGroups.id);

/** Channels (the API's "streams"). Archived channels stay, with their subscriptions. */
export const channels = sqliteTable("channels", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** Lower-cased name: names are unique regardless of case, as clients look them up that way. */
  nameKey: text("name_key").notNull().unique(),
  description: text("description").notNull().default(""),
  renderedDescription: text("rendered_description").notNull().default(""),
  dateCreated: integer("date_created").notNull(),
  creatorId: integer("creator_id").references(() => users.id),
  isArchived: integer("is_archived", { mode: "boolean" }).notNull().default(false),
  inviteOnly: integer("invite_only", { mode: "boolean" }).notNull().default(false),
  isWebPublic: integer("is_web_public", { mode: "boolean" }).notNull().default(false),
  historyPublicToSubscribers: integer("history_public_to_subscribers", { mode: "boolean" }).notNull().default(true),
  /** null inherits the organization's setting; -1 keeps messages forever. */
  messageRetentionDays: integer("message_retention_days"),
  /** Kept up to date by the message store; null while the channel has no messages. */
  firstMessageId: integer("first_message_id"),
  /** New channels count as active so they are not demoted before anyone could post. */
  isRecentlyActive: integer("is_recently_active", { mode: "boolean" }).notNull().default(true),
  /** Average messages per week, filled by whoever measures traffic; null while unknown. */
  weeklyTraffic: integer("weekly_traffic"),
  canAddSubscribersGroup: groupSetting("can_add_subscribers_group"),
  canRemoveSubscribersGroup: groupSetting("can_remove_subscribers_group"),
  canAdministerChannelGroup: groupSetting("can_administer_channel_group"),
  canSendMessageGroup: groupSetting("can_send_message_group"),
  canSubscribeGroup: groupSetting("can_subscribe_group"),
});

export type Channel = typeof channels.$inferSelect;
export type NewChannel = typeof channels.$inferInsert;

/**
 * A user's subscription to a channel. Leaving keeps the row with active = false, so the
 * user's color and settings come back if they rejoin and "unsubscribed" lists what they left.
 */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    color: text("color").notNull(),
    isMuted: integer("is_muted", { mode: "boolean" }).notNull().default(false),
    pinToTop: integer("pin_to_top", { mode: "boolean" }).notNull().default(false),
    // null: inherit the user's own setting for channel messages.
    desktopNotifications: integer("desktop_notifications", { mode: "boolean" }),
    audibleNotifications: integer("audible_notifications", { mode: "boolean" }),
    pushNotifications: integer("push_notifications", { mode: "boolean" }),
    emailNotifications: integer("email_notifications", { mode: "boolean" }),
    wildcardMentionsNotify: integer("wildcard_mentions_notify", { mode: "boolean" }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.channelId] }), index("subscriptions_channel_active").on(table.channelId, table.active)],
);

export type Subscription = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;

/** Channels new users are subscribed to when they join. */
export const defaultChannels = sqliteTable("default_channels", {
  channelId: integer("channel_id")
    .primaryKey()
    .references(() => channels.id),
});

export const channelNameKey = (name: string) => name.toLowerCase();

export function findChannelById(db: Reader, id: number): Channel | undefined {
  return db.select().from(channels).where(eq(channels.id, id)).get();
}

export function findChannelByName(db: Reader, name: string): Channel | undefined {
  return db.select().from(channels).where(eq(channels.nameKey, channelNameKey(name))).get();
}

export function findChannelsByNames(db: Reader, names: string[]): Channel[] {
  if (names.length === 0) return [];
  return db.select().from(channels).where(inArray(channels.nameKey, names.map(channelNameKey))).all();
}

export function listChannels(db: Reader, options: { includeArchived: boolean }): Channel[] {
  const query = db.select().from(channels);
  return (options.includeArchived ? query : query.where(eq(channels.isArchived, false))).orderBy(asc(channels.id)).all();
}

export function insertChannel(db: Reader, values: NewChannel): Channel {
  return db.insert(channels).values(values).returning().get();
}

export function updateChannel(db: Reader, id: number, changes: Partial<NewChannel>): Channel {
  return db.update(channels).set(changes).where(eq(channels.id, id)).returning().get()!;
}

export function findSubscription(db: Reader, userId: number, channelId: number): Subscription | undefined {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.channelId, channelId)))
    .get();
}

/** Every subscription row of a user, active or left. */
export function listSubscriptionsOfUser(db: Reader, userId: number): Subscription[] {
  return db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).all();
}

export function activeChannelIdsOfUser(db: Reader, userId: number): Set<number> {
  const rows = db
    .select({ id: subscriptions.channelId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.active, true)))
    .all();
  return new Set(rows.map((row) => row.id));
}

/** Subscription rows (active or not) of these users in these channels. */
export function subscriptionsOf(db: Reader, userIds: number[], channelIds: number[]): Subscription[] {
  if (userIds.length === 0 || channelIds.length === 0) return [];
  return db
    .select()
    .from(subscriptions)
    .where(and(inArray(subscriptions.userId, userIds), inArray(subscriptions.channelId, channelIds)))
    .all();
}

/**
 * Active subscribers who are active users, per channel (all channels when none are named),
 * in user ID order.
 */
export function activeSubscriberIds(db: Reader, channelIds?: number[]): Map<number, number[]> {
  const result = new Map<number, number[]>((channelIds ?? []).map((id) => [id, []]));
  if (channelIds && channelIds.length === 0) return result;
  const filter = channelIds ? sql`AND s.channel_id IN (${sql.join(channelIds.map((id) => sql`${id}`), sql`, `)})` : sql``;
  const rows = db.all<{ channel_id: number; user_id: number }>(sql`
    SELECT s.channel_id, s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
    WHERE s.active = 1 AND u.is_active = 1 ${filter}
    ORDER BY s.channel_id, s.user_id`);
  for (const row of rows) {
    let list = result.get(row.channel_id);
    if (!list) result.set(row.channel_id, (list = []));
    list.push(row.user_id);
  }
  return result;
}

/** Colors a user already has, so a new subscription can pick one they do not use yet. */
export function usedColorsByUser(db: Reader, userIds: number[]): Map<number, Set<string>> {
  const result = new Map<number, Set<string>>(userIds.map((id) => [id, new Set()]));
  for (const chunk of chunks(userIds, 500)) {
    const rows = db
      .select({ userId: subscriptions.userId, color: subscriptions.color })
      .from(subscriptions)
      .where(inArray(subscriptions.userId, chunk))
      .all();
    for (const row of rows) result.get(row.userId)!.add(row.color);
  }
  return result;
}

// SQLite caps the number of bound variables per statement; 12 columns x 500 rows stays well under it.
export function insertSubscriptions(db: Reader, rows: NewSubscription[]) {
  for (const chunk of chunks(rows, 500)) db.insert(subscriptions).values(chunk).run();
}

export function setSubscriptionsActive(db: Reader, pairs: Array<{ userId: number; channelId: number }>, active: boolean) {
  for (const { userId, channelId } of pairs) {
    db.update(subscriptions)
      .set({ active })
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.channelId, channelId)))
      .run();
  }
}

export function updateSubscription(db: Reader, userId: number, channelId: number, changes: Partial<NewSubscription>) {
  db.update(subscriptions)
    .set(changes)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.channelId, channelId)))
    .run();
}

export function defaultChannelIds(db: Reader): number[] {
  return db
    .select({ id: defaultChannels.channelId })
    .from(defaultChannels)
    .orderBy(asc(defaultChannels.channelId))
    .all()
    .map((row) => row.id);
}

/** Returns whether the channel was not a default channel before. */
export function addDefaultChannel(db: Reader, channelId: number): boolean {
  return db.insert(defaultChannels).values({ channelId }).onConflictDoNothing().returning().all().length > 0;
}

/** Returns whether the channel was a default channel. */
export function removeDefaultChannel(db: Reader, channelId: number): boolean {
  return db.delete(defaultChannels).where(eq(defaultChannels.channelId, channelId)).returning().all().length > 0;
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
