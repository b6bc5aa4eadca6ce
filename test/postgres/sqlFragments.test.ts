import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL as BunSql } from "bun";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/bun-sql";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deleteAlertWords, insertAlertWords, listAlertWords } from "../../src/db/alertWords";
import { botStorageSize, listBotStorage, putBotStorage } from "../../src/db/botStorage";
import { activeSubscriberIds, insertSubscriptions, setSubscriptionsActive, usedColorsByUser } from "../../src/db/channels";
import { newestReceivedMessageId, otherMembersOfDirectConversations, recentDirectConversations } from "../../src/db/conversations";
import { type Dialect, useDialect } from "../../src/db/dialect";
import { readMarksOfUsers } from "../../src/db/flagRows";
import { openHandle } from "../../src/db/handles";
import { messagePageRows, messagesByIds } from "../../src/db/messageHistory";
import { rewriteMessage, topicHasMessages } from "../../src/db/messages";
import {
  advanceMarks,
  bitsOf,
  channelRecipientIds,
  listUnread,
  listUnreadAmong,
  lowestPossiblyUnreadId,
  markEverythingRead,
  marksOf,
  maxMessageId,
  periodsOf,
  raiseMark,
  recordSubscribed,
  recordUnsubscribed,
  storeBitsOfUsers,
  unreadInChannels,
  usersWhoRead,
} from "../../src/db/messageState";
import { messageKeysByIds } from "../../src/db/messageVisibility";
import { applyMigrations } from "../../src/db/migrate";
import { listMutedUsers } from "../../src/db/mutedUsers";
import { hadSubscription, type NarrowFilter, narrowIdsInRange, narrowMatchingIds, readableConversationOf } from "../../src/db/narrowQuery";
import { type PostgresClient, withNumbers } from "../../src/db/postgresConnection";
import { countStored, databaseFigures } from "../../src/db/serverStatus";
import { idList, textList } from "../../src/db/sqlLists";
import * as tables from "../../src/db/tables";
import { useTablesOf } from "../../src/db/tables";
import { channelTopics } from "../../src/db/topics";
import { uploadSpaceByPerson, uploadSpaceUsed, uploadSpaceUsedBy } from "../../src/db/uploads";
import { groupsContainingUser } from "../../src/db/userGroupMembership";
import { listActiveHumans } from "../../src/db/users";
import { groupsWithSubgroups, isUserInGroup, recursiveMemberIds } from "../../src/db/userGroups";
import { activeChannelSettingsHolding, otherActiveGroupSettingsHolding } from "../../src/db/userGroupUses";
import { mutedTopicsOf } from "../../src/db/userTopics";
import { POSTGRES_AVAILABLE, POSTGRES_UNAVAILABLE, startPostgres, type ThrowawayPostgres } from "../helpers/postgres";

/**
 * The SQL that db/ writes per dialect (src/db/dialect.ts), run on both databases: each
 * fragment, built as each dialect builds it, must find the same rows in SQLite and in a
 * throwaway PostgreSQL. Every fragment with a PostgreSQL form gets its case here.
 */

if (!POSTGRES_AVAILABLE) console.warn(`sqlFragments.test.ts (postgres): skipped, ${POSTGRES_UNAVAILABLE}`);

const ITEMS = 50_000;
const POSTGRES_MIGRATIONS = join(import.meta.dir, "..", "..", "migrations", "postgres");

describe.skipIf(!POSTGRES_AVAILABLE)("SQL written per dialect finds the same rows in SQLite and PostgreSQL", () => {
  let postgres: ThrowawayPostgres;
  let pg: BunSql;
  const sqlite = new Database(":memory:");

  beforeAll(async () => {
    postgres = await startPostgres();
    pg = new BunSql(postgres.url);
    await pg`CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL)`;
    await pg`INSERT INTO items SELECT g, 'item-' || g FROM generate_series(1, ${ITEMS}) g`;
    sqlite.run("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
    sqlite.run(`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${ITEMS}) INSERT INTO items SELECT n, 'item-' || n FROM g`);
  });
  afterAll(async () => {
    useDialect("sqlite");
    await pg?.close();
    await postgres?.stop();
    sqlite.close();
  });

  /** `build` run as each dialect, on its database: the rows of each, as plain objects. */
  async function onBoth(build: () => SQL): Promise<Record<Dialect, unknown[]>> {
    useDialect("sqlite");
    const lite = new SQLiteSyncDialect().sqlToQuery(build());
    const liteRows = sqlite.query(lite.sql).all(...(lite.params as never[]));
    useDialect("postgres");
    const post = new PgDialect().sqlToQuery(build());
    useDialect("sqlite");
    const postRows = [...(await pg.unsafe(post.sql, post.params as never[]))];
    // bigint columns come back as strings from PostgreSQL's client: compare as numbers.
    const normal = (rows: unknown[]) => rows.map((row) => Object.fromEntries(Object.entries(row as object).map(([key, value]) => [key, typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value])));
    return { sqlite: normal(liteRows), postgres: normal(postRows) };
  }

  const byIds = (ids: number[]) => () => sql`SELECT id, name FROM items WHERE id IN ${idList(ids)} ORDER BY id`;
  const byNames = (names: string[]) => () => sql`SELECT id FROM items WHERE name IN ${textList(names)} ORDER BY id`;

  test("idList: a few IDs, unknown ones left out", async () => {
    const rows = await onBoth(byIds([3, 1, 2, ITEMS + 7]));
    expect(rows.sqlite).toEqual([{ id: 1, name: "item-1" }, { id: 2, name: "item-2" }, { id: 3, name: "item-3" }]);
    expect(rows.postgres).toEqual(rows.sqlite);
  });

  test("idList: none, and more than either database takes as parameters", async () => {
    const none = await onBoth(byIds([]));
    expect(none).toEqual({ sqlite: [], postgres: [] });
    const all = Array.from({ length: ITEMS }, (_, i) => ITEMS - i);
    const rows = await onBoth(byIds(all));
    expect(rows.sqlite.length).toBe(ITEMS);
    expect(rows.postgres).toEqual(rows.sqlite);
  });

  test("textList: keys by their text", async () => {
    const rows = await onBoth(byNames(["item-9", "item-4", "no such item", "item-40000"]));
    expect(rows.sqlite).toEqual([{ id: 4 }, { id: 9 }, { id: 40_000 }]);
    expect(rows.postgres).toEqual(rows.sqlite);
  });
});

/**
 * The statements of db/ that are written in SQL per dialect, run through the functions that
 * hold them, on the real schema of each database (SQLite's migrations, PostgreSQL's): each
 * function, called as that dialect's process calls it, must give the same answer on both, and
 * the same rows must be left behind by those that write.
 */
describe.skipIf(!POSTGRES_AVAILABLE)("db/ statements give the same answers on SQLite and PostgreSQL", () => {
  let postgres: ThrowawayPostgres;
  let pgClient: BunSql;
  let pgDb: object;
  const sqlite = new Database(":memory:");
  const liteDb = drizzleSqlite(sqlite);

  /** Runs `use` as the dialect's process would, on a handle of a write transaction over its database. */
  async function on<T>(which: Dialect, use: (db: never) => Promise<T>): Promise<T> {
    useDialect(which);
    useTablesOf(which);
    try {
      return await use(openHandle((which === "postgres" ? pgDb : liteDb) as never, "write", () => {}) as never);
    } finally {
      useDialect("sqlite");
      useTablesOf("sqlite");
    }
  }
  /** `use`'s answer on each database, SQLite first. */
  async function onBoth<T>(use: (db: never) => Promise<T>): Promise<Record<Dialect, T>> {
    return { sqlite: await on("sqlite", use), postgres: await on("postgres", use) };
  }
  /** `use`'s answer on each: the same on both, and `expected` (as SQLite always answered). */
  async function expectBoth<T>(use: (db: never) => Promise<T>, expected: T) {
    const answers = await onBoth(use);
    expect(answers.sqlite).toEqual(expected);
    expect(answers.postgres).toEqual(answers.sqlite);
  }
  const entries = <K, V>(map: Map<K, V>) => [...map].sort(([a], [b]) => Number(a) - Number(b));
  const sortedSet = (set: Set<number>) => [...set].sort((a, b) => a - b);

  const F = { READ: 1, UNREAD: 2, STARRED: 4, MENTIONED: 16 };

  /** A few users, groups, channels, conversations, messages and per-user state. */
  async function seed(db: never) {
    const d = db as unknown as { insert: (table: unknown) => { values: (rows: unknown) => Promise<unknown> } };
    const user = (id: number, name: string, more: object = {}) => ({ id, email: `${name}@example.org`, fullName: name, role: 400, apiKey: `key-${id}`, dateJoined: 1, settings: {}, ...more });
    await d.insert(tables.users).values([
      user(1, "iago"),
      user(2, "cordelia", { settings: { send_read_receipts: false } }),
      user(3, "hamlet"),
      user(4, "othello", { isActive: false }),
      user(5, "bot", { isBot: true, botType: 1, botOwnerId: 1 }),
    ]);
    await d.insert(tables.userGroups).values([
      { id: 1, name: "role:everyone", isSystemGroup: true },
      { id: 2, name: "role:members", isSystemGroup: true },
      { id: 3, name: "Team" },
      { id: 4, name: "Old", deactivated: true },
      { id: 5, name: null },
    ]);
    await d.insert(tables.userGroupSubgroups).values([{ groupId: 1, subgroupId: 2 }, { groupId: 3, subgroupId: 5 }]);
    await d.insert(tables.userGroupMembers).values([{ groupId: 2, userId: 1 }, { groupId: 2, userId: 2 }, { groupId: 3, userId: 3 }, { groupId: 5, userId: 2 }]);
    const groups = { canAddSubscribersGroup: 1, canRemoveSubscribersGroup: 1, canAdministerChannelGroup: 1, canSendMessageGroup: 1, canSubscribeGroup: 1 };
    await d.insert(tables.channels).values([
      { id: 1, name: "general", nameKey: "general", dateCreated: 1, ...groups, canSendMessageGroup: 3 },
      { id: 2, name: "secret", nameKey: "secret", dateCreated: 1, inviteOnly: true, ...groups },
      { id: 3, name: "attic", nameKey: "attic", dateCreated: 1, isArchived: true, ...groups, canSendMessageGroup: 3 },
    ]);
    const { updateGroup } = await import("../../src/db/userGroups");
    await updateGroup(db, 3, { canManageGroup: 5 });
    await updateGroup(db, 4, { canManageGroup: 5 });
    await d.insert(tables.subscriptions).values([
      { userId: 1, channelId: 1, color: "#a" },
      { userId: 2, channelId: 1, color: "#c", isMuted: true },
      { userId: 3, channelId: 1, color: "#d", active: false },
      { userId: 4, channelId: 1, color: "#a" },
      { userId: 1, channelId: 2, color: "#b" },
      { userId: 2, channelId: 3, color: "#a" },
    ]);
    await d.insert(tables.subscriptionPeriods).values([
      { userId: 1, channelId: 1, startsAfter: 0, endsAt: null },
      { userId: 2, channelId: 1, startsAfter: 0, endsAt: null },
      { userId: 3, channelId: 1, startsAfter: 0, endsAt: 3 },
      { userId: 4, channelId: 1, startsAfter: 0, endsAt: null },
      { userId: 1, channelId: 2, startsAfter: 0, endsAt: null },
    ]);
    await d.insert(tables.recipients).values([
      { id: 1, type: 1, channelId: 1 },
      { id: 2, type: 1, channelId: 2 },
      { id: 3, type: 2, dmKey: "1,2" },
      { id: 4, type: 2, dmKey: "1,3" },
    ]);
    await d.insert(tables.recipientUsers).values([{ recipientId: 3, userId: 1 }, { recipientId: 3, userId: 2 }, { recipientId: 4, userId: 1 }, { recipientId: 4, userId: 3 }]);
    const message = (id: number, recipientId: number, channelId: number | null, topic: string, senderId: number, more: object = {}) => ({
      id, recipientId, channelId, topic, topicKey: topic.toLowerCase(), senderId, content: `m${id}`, renderedContent: `<p>m${id}</p>`, dateSent: 1000 + id, ...more,
    });
    await d.insert(tables.messages).values([
      message(1, 1, 1, "Greetings", 1),
      message(2, 1, 1, "✔ done", 2),
      message(3, 1, 1, "GREETINGS", 3),
      message(4, 3, null, "", 2),
      message(5, 2, 2, "plans", 1),
      message(6, 1, 1, "later", 1, { hasLink: true }),
      message(7, 4, null, "", 3),
      message(8, 1, 1, "later", 2),
    ]);
    await d.insert(tables.messageFlags).values([
      { userId: 1, messageId: 2, recipientId: 1, flags: F.STARRED },
      { userId: 2, messageId: 1, recipientId: 1, flags: F.READ },
      { userId: 2, messageId: 2, recipientId: 1, flags: F.UNREAD },
      { userId: 1, messageId: 4, recipientId: 3, flags: F.MENTIONED },
    ]);
    await d.insert(tables.readMarks).values([
      { userId: 1, recipientId: 1, readUpTo: 2 },
      { userId: 2, recipientId: 1, readUpTo: 3 },
      { userId: 1, recipientId: 3, readUpTo: 4 },
      { userId: 2, recipientId: 3, readUpTo: 4 },
    ]);
    await d.insert(tables.userTopics).values([
      { userId: 1, channelId: 1, topicKey: "later", topic: "later", visibilityPolicy: 1, lastUpdated: 100 },
      { userId: 1, channelId: 1, topicKey: "greetings", topic: "Greetings", visibilityPolicy: 1, lastUpdated: 50 },
      { userId: 2, channelId: 1, topicKey: "greetings", topic: "Greetings", visibilityPolicy: 3, lastUpdated: 60 },
    ]);
    // One at a time, in this order: the order they were added is what the lists keep.
    for (const [userId, mutedUserId, dateMuted] of [[2, 3, 100], [2, 1, 100], [1, 5, 50]]) await d.insert(tables.mutedUsers).values({ userId, mutedUserId, dateMuted });
    const attachment = (id: number, ownerId: number, size: number) => ({ id, ownerId, pathId: `p${id}`, fileName: `f${id}`, contentType: "text/plain", size, sha256: `h${id}`, createTime: 1 });
    await d.insert(tables.attachments).values([attachment(1, 1, 100), attachment(2, 5, 50), attachment(3, 2, 7)]);
  }

  beforeAll(async () => {
    postgres = await startPostgres();
    pgClient = new BunSql({ url: postgres.url, bigint: true, max: 1 });
    for (const file of readdirSync(POSTGRES_MIGRATIONS).filter((name) => name.endsWith(".sql")).sort()) {
      for (const statement of readFileSync(join(POSTGRES_MIGRATIONS, file), "utf8").split("--> statement-breakpoint")) if (statement.trim()) await pgClient.unsafe(statement);
    }
    pgDb = drizzlePostgres({ client: withNumbers(pgClient as unknown as PostgresClient) as never });
    applyMigrations(sqlite);
    await on("sqlite", seed);
    await on("postgres", seed);
    // SQLite's search index is written as a send's transaction ends (db/searchIndex.ts); here, at once.
    sqlite.run("INSERT INTO messages_fts(rowid, content, topic, scope) SELECT id, content, topic, 'r' || recipient_id FROM messages");
  });
  afterAll(async () => {
    await pgClient?.close();
    await postgres?.stop();
    sqlite.close();
  });

  test("bot storage: entries put as one JSON parameter, replaced by key; sizes summed", async () => {
    await onBoth((db) => putBotStorage(db, 5, [{ key: "b", value: "2" }, { key: "a", value: "1" }, { key: "ü", value: "ẞ" }]));
    await onBoth((db) => putBotStorage(db, 5, [{ key: "a", value: "one" }]));
    await expectBoth((db) => listBotStorage(db, 5), [{ key: "a", value: "one" }, { key: "b", value: "2" }, { key: "ü", value: "ẞ" }]);
    await expectBoth((db) => listBotStorage(db, 5, ["b", "zz"]), [{ key: "b", value: "2" }]);
    await expectBoth((db) => botStorageSize(db, 5), 8);
  });

  test("channels: active subscribers (deactivated users left out), colors in use", async () => {
    await expectBoth(async (db) => entries(await activeSubscriberIds(db)), [[1, [1, 2]], [2, [1]], [3, [2]]]);
    await expectBoth(async (db) => entries(await activeSubscriberIds(db, [1, 9])), [[1, [1, 2]], [9, []]]);
    await expectBoth(async (db) => entries(await usedColorsByUser(db, [1, 2])).map(([id, colors]) => [id, [...colors].sort()]), [[1, ["#a", "#b"]], [2, ["#a", "#c"]]]);
  });

  test("conversations: the newest message received, direct conversations newest first, their members", async () => {
    await expectBoth((db) => newestReceivedMessageId(db, 1), 8);
    await expectBoth((db) => newestReceivedMessageId(db, 3), 7);
    await expectBoth((db) => newestReceivedMessageId(db, 99), undefined);
    await expectBoth((db) => recentDirectConversations(db, 1, 10), [{ id: 4, newest: 7 }, { id: 3, newest: 4 }]);
    await expectBoth((db) => recentDirectConversations(db, 1, 1), [{ id: 4, newest: 7 }]);
    await expectBoth((db) => otherMembersOfDirectConversations(db, 1), [{ recipientId: 3, userId: 2 }, { recipientId: 4, userId: 3 }]);
  });

  test("history: messages by IDs through the prepared query's JSON list, and what a page of them names", async () => {
    const answers = await onBoth((db) => messagesByIds(db, [8, 1, 99]));
    expect(answers.sqlite.map((message) => message.id)).toEqual([1, 8]);
    expect(answers.postgres).toEqual(answers.sqlite);
    const page = async (db: never) => {
      const rows = await messagePageRows(db, await messagesByIds(db, [1, 4, 7]));
      return {
        channelNames: entries(rows.channelNames),
        participants: entries(rows.participants).map(([id, users]) => [id, users.map((user) => user.id).sort()]),
        users: entries(rows.usersById).map(([id, user]): unknown[] => [id, user.fullName, user.isActive, user.settings]),
      };
    };
    await expectBoth(page, {
      channelNames: [[1, "general"]],
      participants: [[3, [1, 2]], [4, [1, 3]]],
      users: [[1, "iago", true, {}], [2, "cordelia", true, { send_read_receipts: false }], [3, "hamlet", true, {}]],
    });
  });

  test("read state: marks, periods, bits, recipients, the newest message", async () => {
    await expectBoth((db) => maxMessageId(db), 8);
    await expectBoth(async (db) => entries(await channelRecipientIds(db, [1, 2, 3])), [[1, 1], [2, 2]]);
    await expectBoth(async (db) => entries(await marksOf(db, 1, [1, 3, 4])), [[1, 2], [3, 4]]);
    await expectBoth(async (db) => entries(await readMarksOfUsers(db, 1, [1, 2, 3])), [[1, 2], [2, 3]]);
    await expectBoth((db) => periodsOf(db, 3, [1]), [{ userId: 3, channelId: 1, startsAfter: 0, endsAt: 3 }]);
    await expectBoth(async (db) => entries(await bitsOf(db, 2, [1, 2, 6])), [[1, F.READ], [2, F.UNREAD]]);
    await expectBoth(async (db) => (await messageKeysByIds(db, [7, 3, 99])).map((key) => [key.id, key.recipientId, key.channelId, key.senderId]), [[3, 1, 1, 3], [7, 4, null, 3]]);
  });

  test("unread: the CASE over flag bits and marks, the lowest possibly unread ID, unread in channels", async () => {
    const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);
    await expectBoth(async (db) => ids(await listUnread(db, 1)), [8, 7, 6, 5, 3]);
    await expectBoth(async (db) => ids(await listUnread(db, 1, { oldestFirst: true, limit: 2 })), [3, 5]);
    await expectBoth((db) => listUnreadAmong(db, 2, [1, 2, 6, 8]), [
      { id: 8, recipientId: 1, channelId: 1, topic: "later", topicKey: "later", senderId: 2, bits: 0 },
      { id: 6, recipientId: 1, channelId: 1, topic: "later", topicKey: "later", senderId: 1, bits: 0 },
      { id: 2, recipientId: 1, channelId: 1, topic: "✔ done", topicKey: "✔ done", senderId: 2, bits: F.UNREAD },
    ]);
    await expectBoth((db) => lowestPossiblyUnreadId(db, 2), 2);
    await expectBoth((db) => lowestPossiblyUnreadId(db, 3), 1);
    await expectBoth(async (db) => entries(await unreadInChannels(db, [{ userId: 1, channelId: 1 }, { userId: 2, channelId: 1 }])), [[1, [3, 6, 8]], [2, [2, 6, 8]]]);
  });

  test("read receipts: who read a message, with their setting read from JSON, never the muted", async () => {
    const key = (id: number, recipientId: number, channelId: number | null, senderId: number) => ({ id, recipientId, channelId, senderId });
    await expectBoth((db) => usersWhoRead(db, key(3, 1, 1, 3), 5), [{ id: 2, sendsReadReceipts: false }, { id: 3, sendsReadReceipts: true }]);
    await expectBoth((db) => usersWhoRead(db, key(3, 1, 1, 3), 1), [{ id: 3, sendsReadReceipts: true }]);
    await expectBoth((db) => usersWhoRead(db, key(4, 3, null, 2), 3), [{ id: 1, sendsReadReceipts: true }]);
  });

  test("narrows: each condition, negated too, as a WHERE on messages", async () => {
    type Condition = NarrowFilter["terms"][number]["condition"];
    // Made anew for each database: the SQL a filter becomes is kept with it (narrowQuery.ts), in the dialect it was built for.
    const filter = (userId: number, conditions: Array<Condition | { not: Condition }>, scope: NarrowFilter["scope"] = { kind: "all" }) => (): NarrowFilter => ({
      userId,
      scope,
      terms: conditions.map((condition) => ("not" in condition ? { condition: condition.not, negated: true } : { condition, negated: false })),
      search: null,
      excluded: [],
    });
    const newestFirst = (narrow: () => NarrowFilter) => (db: never) => narrowIdsInRange(db, narrow(), { from: 1, to: 9 }, "DESC", 100);
    const channel1: Condition = { kind: "channel", channelId: 1, recipientId: 1 };
    await expectBoth(newestFirst(filter(1, [channel1])), [8, 6, 3, 2, 1]);
    await expectBoth(newestFirst(filter(1, [{ not: channel1 }])), [7, 5, 4]);
    await expectBoth(newestFirst(filter(1, [{ kind: "channel", channelId: 1, recipientId: 1 }, { kind: "topic", topicKey: "greetings" }])), [3, 1]);
    await expectBoth(newestFirst(filter(1, [{ kind: "topicPrefix", prefix: "✔ " }])), [2]);
    await expectBoth(newestFirst(filter(1, [{ kind: "muted" }])), [8, 6, 3, 1]);
    await expectBoth(newestFirst(filter(1, [{ kind: "notMuted" }])), [7, 5, 4, 2]);
    await expectBoth(newestFirst(filter(2, [{ kind: "muted" }])), [8, 6, 2]);
    await expectBoth(newestFirst(filter(2, [{ kind: "followed" }])), [3, 1]);
    await expectBoth(newestFirst(filter(1, [{ kind: "unread" }])), [8, 7, 6, 5, 3]);
    await expectBoth(newestFirst(filter(1, [{ not: { kind: "unread" } }])), [4, 2, 1]);
    await expectBoth(newestFirst(filter(1, [{ kind: "nothing" }])), []);
    await expectBoth(newestFirst(filter(1, [{ kind: "everything" }])), [8, 7, 6, 5, 4, 3, 2, 1]);
    await expectBoth(newestFirst(filter(1, [{ kind: "conversation", recipientId: undefined }])), []);
    await expectBoth(newestFirst(filter(1, [{ kind: "flagged", bits: F.STARRED }])), [2]);
    await expectBoth(newestFirst(filter(1, [{ kind: "has", what: "link" }])), [6]);
    await expectBoth(newestFirst(filter(1, [{ kind: "channels", which: "public" }])), [8, 6, 3, 2, 1]);
    await expectBoth(newestFirst(filter(3, [], { kind: "received" })), [7, 3, 2, 1]);
    await expectBoth(newestFirst(filter(3, [], { kind: "readable", channelIds: [2] })), [7, 5, 3, 2, 1]);
    await expectBoth((db) => narrowIdsInRange(db, filter(1, [channel1])(), { from: 2, to: 8 }, "ASC", 2), [2, 3]);
    // Searches: SQLite walks messages_fts, PostgreSQL asks matchesSql (db/messageSearch.ts) of messages.
    const searching = (words: string[], excluded: string[][] = [], recipientId?: number) => () => ({
      ...filter(1, [])(),
      search: words.length > 0 ? { query: { words, phrases: [] }, recipientId } : null,
      excluded: excluded.map((each) => ({ words: each, phrases: [] })),
    });
    await expectBoth(newestFirst(searching(["later"])), [8, 6]);
    await expectBoth(newestFirst(searching(["m3"])), [3]);
    await expectBoth(newestFirst(searching(["later"], [], 2)), []);
    await expectBoth(newestFirst(searching([], [["later"], ["m2"]])), [7, 5, 4, 3, 1]);
    await expectBoth((db) => narrowIdsInRange(db, searching(["later"])(), { from: 1, to: 9 }, "ASC", 1), [6]);
    await expectBoth((db) => narrowMatchingIds(db, filter(1, [channel1])(), [1, 2, 3, 4]), [1, 2, 3]);
    const sortedMembers = (conversation: Awaited<ReturnType<typeof readableConversationOf>>) =>
      conversation && conversation.channelId === null ? { ...conversation, memberIds: [...conversation.memberIds].sort() } : conversation;
    await expectBoth(async (db) => sortedMembers(await readableConversationOf(db, 3, 3, [])), { channelId: 1, topic: "GREETINGS" });
    await expectBoth(async (db) => sortedMembers(await readableConversationOf(db, 7, 1, [])), { channelId: null, memberIds: [1, 3] });
    await expectBoth((db) => readableConversationOf(db, 5, 3, []), undefined);
    await expectBoth((db) => hadSubscription(db, 3, 1), true);
    await expectBoth((db) => hadSubscription(db, 3, 2), false);
    await expectBoth((db) => topicHasMessages(db, 1, "greetings"), true);
    await expectBoth((db) => topicHasMessages(db, 1, "nope"), false);
  });

  test("topics: a channel's topics newest first, all or as a user received them; muted topics", async () => {
    await expectBoth((db) => channelTopics(db, 1), [{ name: "later", max_id: 8 }, { name: "GREETINGS", max_id: 3 }, { name: "✔ done", max_id: 2 }]);
    await expectBoth((db) => channelTopics(db, 1, { receivedBy: 3 }), [{ name: "GREETINGS", max_id: 3 }, { name: "✔ done", max_id: 2 }]);
    await expectBoth((db) => mutedTopicsOf(db, 1), [["general", "Greetings", 50], ["general", "later", 100]]);
  });

  test("user groups: membership through subgroups (recursive, from one ID or a JSON list), settings that hold a group", async () => {
    await expectBoth((db) => isUserInGroup(db, 1, 1), true);
    await expectBoth((db) => isUserInGroup(db, 3, 1), false);
    await expectBoth((db) => recursiveMemberIds(db, 1), [1, 2]);
    await expectBoth((db) => recursiveMemberIds(db, 3), [2, 3]);
    await expectBoth(async (db) => sortedSet(await groupsWithSubgroups(db, [1, 3])), [1, 2, 3, 5]);
    await expectBoth(async (db) => sortedSet(await groupsContainingUser(db, 2)), [1, 2, 3, 5]);
    await expectBoth((db) => activeChannelSettingsHolding(db, [3]), [[1, ["can_send_message_group"]]]);
    await expectBoth((db) => otherActiveGroupSettingsHolding(db, 1, [5]), [[3, ["can_manage_group"]]]);
    await expectBoth((db) => otherActiveGroupSettingsHolding(db, 3, [5]), []);
  });

  test("alert words and mutes in the order they were added", async () => {
    await onBoth(async (db) => {
      for (const word of ["zeta", "alpha", "mu"]) await insertAlertWords(db, 1, [word]);
      await deleteAlertWords(db, 1, ["alpha"]);
      await insertAlertWords(db, 1, ["beta", "gamma"]);
    });
    await expectBoth((db) => listAlertWords(db, 1), ["zeta", "mu", "beta", "gamma"]);
    await expectBoth((db) => listMutedUsers(db, 2), [{ id: 3, timestamp: 100 }, { id: 1, timestamp: 100 }]);
  });

  test("alert words keep their order once VACUUM lets a new row fill a deleted one's place in the heap", async () => {
    await on("postgres", async (db) => {
      for (const word of ["one", "two", "three"]) await insertAlertWords(db, 4, [word]);
      await deleteAlertWords(db, 4, ["one"]);
    });
    await pgClient.unsafe("VACUUM alert_words");
    await on("postgres", (db) => insertAlertWords(db, 4, ["four"]));
    const heapOrder = await pgClient.unsafe("SELECT word FROM alert_words WHERE user_id = 4 ORDER BY ctid");
    // The heap's order is not the order added (which is what made ctid no order to list by) ...
    expect(heapOrder.map((row: { word: string }) => row.word)).toEqual(["four", "two", "three"]);
    // ... the IDs' is.
    expect(await on("postgres", (db) => listAlertWords(db, 4))).toEqual(["two", "three", "four"]);
  });

  test("users: active humans, their condition built for the dialect of the query (not once, at import)", async () => {
    await expectBoth(async (db) => (await listActiveHumans(db)).map((user) => user.id).sort(), [1, 2, 3]);
  });

  test("sums: uploads' bytes (numeric on PostgreSQL, cast back) and the server's counts", async () => {
    await expectBoth((db) => uploadSpaceUsed(db), 157);
    await expectBoth((db) => uploadSpaceUsedBy(db, 1), 150);
    await expectBoth((db) => uploadSpaceUsedBy(db, 3), 0);
    await expectBoth((db) => uploadSpaceByPerson(db, 10), [{ userId: 1, bytes: 150 }, { userId: 2, bytes: 7 }]);
    await expectBoth((db) => countStored(db), { users: 3, bots: 1, channels: 2, messages: 8, uploadFiles: 3, uploadBytes: 157, outboxGivenUp: 0 });
    const sizes = await on("postgres", (db) => databaseFigures(db));
    expect(sizes.store).toBe("postgresql");
    expect(sizes.sizeBytes).toBeGreaterThan(0);
    expect(sizes.walBytes).toBeNull();
  });

  test("writes: flag bits stored and cleared from a JSON list, marks raised (never lowered) and advanced", async () => {
    const key = (id: number, recipientId: number, channelId: number | null, senderId: number) => ({ id, recipientId, channelId, senderId });
    await onBoth((db) => storeBitsOfUsers(db, [
      { userId: 3, message: key(7, 4, null, 3), bits: F.STARRED },
      { userId: 1, message: key(2, 1, 1, 2), bits: F.STARRED | F.READ },
      { userId: 1, message: key(4, 3, null, 2), bits: 0 },
    ]));
    await onBoth(async (db) => {
      await raiseMark(db, 3, 4, 7);
      await raiseMark(db, 1, 1, 1);
      await advanceMarks(db, 2, [1]);
    });
    await expectBoth(flagRows, [
      { userId: 1, messageId: 2, recipientId: 1, flags: F.STARRED | F.READ },
      { userId: 2, messageId: 2, recipientId: 1, flags: F.UNREAD },
      { userId: 3, messageId: 7, recipientId: 4, flags: F.STARRED },
    ]);
    await expectBoth(markRows, [
      { userId: 1, recipientId: 1, readUpTo: 2 },
      { userId: 1, recipientId: 3, readUpTo: 4 },
      { userId: 2, recipientId: 1, readUpTo: 5 },
      { userId: 2, recipientId: 3, readUpTo: 4 },
      { userId: 3, recipientId: 4, readUpTo: 7 },
    ]);
  });

  test("writes: joining and leaving channels as pairs in one JSON parameter; everything marked read", async () => {
    await onBoth(async (db) => {
      await insertSubscriptions(db, [{ userId: 3, channelId: 2, color: "#e" }, { userId: 5, channelId: 1, color: "#f" }]);
      await setSubscriptionsActive(db, [{ userId: 3, channelId: 1 }], true);
      await setSubscriptionsActive(db, [{ userId: 2, channelId: 3 }], false);
      await recordSubscribed(db, [{ userId: 3, channelId: 2 }, { userId: 5, channelId: 1 }, { userId: 3, channelId: 1 }]);
      await recordUnsubscribed(db, [{ userId: 1, channelId: 1 }]);
      await markEverythingRead(db, 2, 8);
    });
    await expectBoth(
      async (db) => (await (db as { select: () => { from: (table: unknown) => Promise<Array<{ userId: number; channelId: number; active: boolean; color: string }>> } }).select().from(tables.subscriptions))
        .map((row) => [row.userId, row.channelId, row.active, row.color])
        .sort((a, b) => Number(a[0]) - Number(b[0]) || Number(a[1]) - Number(b[1])),
      [[1, 1, true, "#a"], [1, 2, true, "#b"], [2, 1, true, "#c"], [2, 3, false, "#a"], [3, 1, true, "#d"], [3, 2, true, "#e"], [4, 1, true, "#a"], [5, 1, true, "#f"]],
    );
    await expectBoth(
      async (db) => (await periodsOf(db, 3, [1, 2])).concat(await periodsOf(db, 5, [1]), await periodsOf(db, 1, [1])).sort((a, b) => a.userId - b.userId || a.channelId - b.channelId || a.startsAfter - b.startsAfter),
      [
        { userId: 1, channelId: 1, startsAfter: 0, endsAt: 8 },
        { userId: 3, channelId: 1, startsAfter: 0, endsAt: 3 },
        { userId: 3, channelId: 1, startsAfter: 8, endsAt: null },
        { userId: 3, channelId: 2, startsAfter: 8, endsAt: null },
        { userId: 5, channelId: 1, startsAfter: 8, endsAt: null },
      ],
    );
    await expectBoth(markRows, [
      { userId: 1, recipientId: 1, readUpTo: 8 },
      { userId: 1, recipientId: 3, readUpTo: 4 },
      { userId: 2, recipientId: 1, readUpTo: 8 },
      { userId: 2, recipientId: 3, readUpTo: 8 },
      { userId: 3, recipientId: 1, readUpTo: 8 },
      { userId: 3, recipientId: 2, readUpTo: 8 },
      { userId: 3, recipientId: 4, readUpTo: 7 },
      { userId: 5, recipientId: 1, readUpTo: 8 },
    ]);
    // Leaving dropped user 1's READ bit in the channel; marking everything read, user 2's UNREAD.
    await expectBoth(flagRows, [
      { userId: 1, messageId: 2, recipientId: 1, flags: F.STARRED },
      { userId: 3, messageId: 7, recipientId: 4, flags: F.STARRED },
    ]);
  });

  test("writes: an edit history grows newest first, from none", async () => {
    const entry = (timestamp: number) => ({ user_id: 1, timestamp, prev_content: `before ${timestamp}` });
    await onBoth(async (db) => {
      await rewriteMessage(db, 1, { lastEditTime: 10 }, entry(10));
      await rewriteMessage(db, 1, { lastEditTime: 20 }, entry(20));
    });
    await expectBoth(async (db) => (await messagesByIds(db, [1]))[0]!.editHistory, [entry(20), entry(10)]);
  });

  const flagRows = async (db: never) => (await flagRowsOf(db)).sort((a, b) => a.userId - b.userId || a.messageId - b.messageId);
  const markRows = async (db: never) => {
    const rows = (await (db as { select: () => { from: (table: unknown) => Promise<Array<{ userId: number; recipientId: number; readUpTo: number }>> } }).select().from(tables.readMarks));
    return rows.sort((a, b) => a.userId - b.userId || a.recipientId - b.recipientId);
  };
  const flagRowsOf = async (db: never) =>
    (db as { select: () => { from: (table: unknown) => Promise<Array<{ userId: number; messageId: number; recipientId: number; flags: number }>> } }).select().from(tables.messageFlags);
});
