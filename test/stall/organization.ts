import { Database } from "bun:sqlite";
import { join } from "node:path";
import { DATABASE_FILE } from "../../src/db/client";
import type { User } from "../../src/db/users";
import { Role } from "../../src/model/roles";
import { ApiClient } from "../helpers/client";
import { buildOrganization, insertMessages, random } from "../helpers/largeOrg";
import { OWNER, ok, type Person } from "../helpers/seed";
import { type BrowserSession, signInSession } from "../helpers/sessionClient";
import { runParley, tempDataDir, TestServer, type ServerOptions } from "../helpers/server";

/**
 * The large organization the stall test runs every route's most expensive input against:
 * big enough that the finding reproduces (100,000 message IDs in one flags request took
 * seconds before the fix), small enough to build in a few seconds. Everything a case needs
 * is here, each case that changes something with objects of its own, so that no case makes
 * another cheaper.
 */

export const SIZES = {
  /** Filler members besides the named people. */
  people: 1000,
  /** Public channels everyone is subscribed to. */
  busyChannels: 20,
  /** Public channels nobody is in, for the bulk subscription cases. */
  emptyChannels: 100,
  messages: 150_000,
  /** Messages in each of the big topics (one per case that moves, deletes or reads a topic). */
  bigTopic: 20_000,
  /** Direct messages between the member and filler people. */
  directMessages: 5_000,
  /** Edits in the edit history of the member's much edited message, and the length of each version. */
  edits: 300,
  editLength: 10_000,
} as const;

/** Topics of `SIZES.bigTopic` messages each, keyed by what they are for; each in its own busy channel. */
export const BIG_TOPICS = ["read", "moved within", "moved away", "deleted", "resolved"] as const;
export type BigTopic = (typeof BIG_TOPICS)[number];

/** What each busy channel is for, by index (the rest hold only scattered messages). */
export const BUSY = {
  /** Reads, read receipts (every filler person has read it all), the reacted and the edited message. */
  general: 0,
  /** bigTopics[i] is in busy channel 1 + i. */
  firstBigTopic: 1,
  archived: 6,
  madePrivate: 7,
  /** Everyone filler leaves these three. */
  leftFrom: 8,
  movedTo: 11,
} as const;

export interface StallOrg {
  server: TestServer;
  owner: Person;
  admin: Person;
  moderator: Person;
  /** The member who sends the finding's request. */
  member: Person;
  guest: Person;
  /** Measures GET /users/me while a case runs. */
  watcher: Person;
  /** Deactivates themself (DELETE /users/me). */
  leaver: Person;
  /** Deactivated by an administrator (DELETE /users/{id}), then reactivated: in every channel, many messages sent. */
  doomed: Person;
  /** A generic bot the member owns. */
  bot: Person;
  /** The owner signed in with a browser, for the pages. */
  ownerSession: BrowserSession;
  /** Every channel everyone is in, by index (see BUSY). */
  busyChannelIds: number[];
  emptyChannelIds: number[];
  bigTopics: Record<BigTopic, { channelId: number; topic: string; firstId: number; lastId: number }>;
  fillerIds: number[];
  /** A message in the general channel every filler person reacted to. */
  reactedMessageId: number;
  /** The member's message in the general channel, edited SIZES.edits times. */
  editedMessageId: number;
  /** A user group with only the administrator in it. */
  smallGroupId: number;
  newestMessageId: number;
}

const NAMED = {
  admin: { email: "admin@example.com", fullName: "Ada Admin", role: Role.ADMINISTRATOR },
  moderator: { email: "moderator@example.com", fullName: "Mona Moderator", role: Role.MODERATOR },
  member: { email: "member@example.com", fullName: "Mel Member", role: Role.MEMBER },
  guest: { email: "guest@example.com", fullName: "Gus Guest", role: Role.GUEST },
  watcher: { email: "watcher@example.com", fullName: "Wendy Watcher", role: Role.MEMBER },
  leaver: { email: "leaver@example.com", fullName: "Lee Leaver", role: Role.MEMBER },
  doomed: { email: "doomed@example.com", fullName: "Dom Doomed", role: Role.MEMBER },
} as const;
type Named = keyof typeof NAMED;

const WORDS = ["deploy", "lunch", "release", "review", "outage", "design", "budget", "hiring", "roadmap", "incident", "launch", "retro"];

export async function buildStallOrg(options: ServerOptions): Promise<StallOrg> {
  const dataDir = tempDataDir();
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Stall", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
  const names = Object.keys(NAMED) as Named[];
  const busyNames = Array.from({ length: SIZES.busyChannels }, (_, i) => `busy-${i}`);
  const accounts = await buildOrganization(dataDir, {
    named: names.map((name) => NAMED[name]),
    people: SIZES.people,
    channelNames: busyNames,
    unsubscribedChannels: Array.from({ length: SIZES.emptyChannels }, (_, i) => `empty-${i}`),
  });
  const [owner, ...rest] = accounts;
  const named = Object.fromEntries(names.map((name, i) => [name, rest[i]])) as Record<Named, User>;
  const filler = rest.slice(names.length);
  const channelIdOf = new Map(
    withDatabase(dataDir, (sqlite) => sqlite.query<{ id: number; name: string }, []>("SELECT id, name FROM channels").all().map((row) => [row.name, row.id] as const)),
  );
  const busyChannelIds = busyNames.map((name) => channelIdOf.get(name)!);

  // The big topics come first, in order, then direct messages, then the rest scattered over
  // every busy channel. The member and the guest are in every busy channel: they received it all.
  const next = random(24);
  const senders = [named.doomed, ...filler];
  const bigTopicEnd = BIG_TOPICS.length * SIZES.bigTopic;
  const dmEnd = bigTopicEnd + SIZES.directMessages;
  const bigTopics = Object.fromEntries(
    BIG_TOPICS.map((name, i) => [name, { channelId: busyChannelIds[BUSY.firstBigTopic + i], topic: `big ${name}`, firstId: i * SIZES.bigTopic + 1, lastId: (i + 1) * SIZES.bigTopic }]),
  ) as StallOrg["bigTopics"];
  const newestMessageId = insertMessages(dataDir, {
    count: SIZES.messages,
    place(index) {
      const senderId = senders[Math.floor(next() * senders.length)].id;
      if (index < bigTopicEnd) {
        const big = bigTopics[BIG_TOPICS[Math.floor(index / SIZES.bigTopic)]];
        return { channelId: big.channelId, topic: big.topic, senderId };
      }
      if (index < dmEnd) return { dmUserIds: [named.member.id], senderId };
      const channel = Math.floor(next() * busyChannelIds.length);
      return { channelId: busyChannelIds[channel], topic: `topic ${channel}-${Math.floor(next() * 20)}`, senderId };
    },
    content: (index) => `message ${index} about ${WORDS[index % WORDS.length]} and ${WORDS[(index * 7) % WORDS.length]}, see https://example.com/${index}`,
  });
  const { reactedMessageId, editedMessageId } = withDatabase(dataDir, (sqlite) => addHistory(sqlite, { general: busyChannelIds[BUSY.general], member: named.member, filler, newestMessageId }));

  const server = await TestServer.start({ ...options, dataDir, init: false });
  const anon = new ApiClient(server.url);
  const person = (user: Pick<User, "id" | "email" | "apiKey">, password = ""): Person => ({ id: user.id, email: user.email, password, apiKey: user.apiKey, api: anon.as(user.email, user.apiKey) });
  const admin = person(named.admin);
  const member = person(named.member);
  const created = ok(await member.api.post("/bots", { full_name: "Stall Bot", short_name: "stall", bot_type: 1 }));
  const group = ok(await admin.api.post("/user_groups/create", { name: "small group", description: "", members: [admin.id] }));
  return {
    server,
    owner: person(owner, OWNER.password),
    ownerSession: await signInSession(server.url, { email: OWNER.email, password: OWNER.password }),
    admin,
    moderator: person(named.moderator),
    member,
    guest: person(named.guest),
    watcher: person(named.watcher),
    leaver: person(named.leaver),
    doomed: person(named.doomed),
    bot: person({ id: created.user_id, email: created.email, apiKey: created.api_key }),
    busyChannelIds,
    emptyChannelIds: Array.from({ length: SIZES.emptyChannels }, (_, i) => channelIdOf.get(`empty-${i}`)!),
    bigTopics,
    fillerIds: filler.map((user) => user.id),
    reactedMessageId,
    editedMessageId,
    smallGroupId: group.group_id,
    newestMessageId,
  };
}

function withDatabase<T>(dataDir: string, use: (sqlite: Database) => T): T {
  const sqlite = new Database(join(dataDir, DATABASE_FILE));
  try {
    return use(sqlite);
  } finally {
    sqlite.close();
  }
}

/**
 * What the organization's history holds besides messages: every filler person has read the
 * general channel and reacted to one of its messages; the member edited one of theirs many
 * times; everyone has a presence.
 */
function addHistory(sqlite: Database, at: { general: number; member: User; filler: User[]; newestMessageId: number }) {
  const generalMessage = (offset: number) =>
    (sqlite.query("SELECT id FROM messages WHERE channel_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?").get(at.general, offset) as { id: number }).id;
  const reactedMessageId = generalMessage(10);
  const editedMessageId = generalMessage(20);
  const now = Math.floor(Date.now() / 1000);
  sqlite.transaction(() => {
    const recipientId = (sqlite.query("SELECT id FROM recipients WHERE channel_id = ?").get(at.general) as { id: number }).id;
    const mark = sqlite.prepare("INSERT OR REPLACE INTO read_marks (user_id, recipient_id, read_up_to) VALUES (?, ?, ?)");
    const react = sqlite.prepare("INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (?, ?, '+1', '1f44d', 'unicode_emoji')");
    for (const user of at.filler) {
      mark.run(user.id, recipientId, at.newestMessageId);
      react.run(reactedMessageId, user.id);
    }
    const version = (i: number) => `version ${i}: ${"all work and no play makes a dull message. ".repeat(SIZES.editLength / 42)}`;
    const history = Array.from({ length: SIZES.edits }, (_, i) => ({
      user_id: at.member.id,
      timestamp: now - (SIZES.edits - i),
      prev_content: version(SIZES.edits - i - 1),
      prev_rendered_content: `<p>${version(SIZES.edits - i - 1)}</p>`,
    }));
    sqlite.run("UPDATE messages SET sender_id = ?, content = ?, rendered_content = ?, edit_history = ?, last_edit_time = ?, date_sent = ? WHERE id = ?", [
      at.member.id,
      version(SIZES.edits),
      `<p>${version(SIZES.edits)}</p>`,
      JSON.stringify(history),
      now,
      now - SIZES.edits - 1,
      editedMessageId,
    ]);
    const presence = sqlite.prepare("INSERT OR REPLACE INTO presences (user_id, last_active_time, last_connected_time, last_update_id) VALUES (?, ?, ?, ?)");
    for (const user of [at.member, ...at.filler]) presence.run(user.id, now - 60, now - 30, user.id);
  })();
  return { reactedMessageId, editedMessageId };
}
