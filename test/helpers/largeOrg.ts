import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { NewChannelSettings } from "../../src/access/channelCreation";
import { createChannels } from "../../src/actions/channels";
import { addSubscriptions } from "../../src/actions/subscriptionChanges";
import { addAccount } from "../../src/actions/users";
import { closeDatabase, DATABASE_FILE, openDatabase } from "../../src/db/client";
import { write } from "../../src/db/transaction";
import { findUserByEmail, type User } from "../../src/db/users";
import { Role } from "../../src/model/roles";
import { OWNER } from "./seed";

/**
 * A large organization built straight into an initialized data dir: people and channels
 * through Parley's own actions, then messages inserted through SQL in large transactions,
 * which is what makes hundreds of thousands of them quick to build (bench/history.ts and the
 * stall test use it). The server must not be running on the data dir meanwhile.
 */

/** A fixed pseudo-random sequence, so every run builds the same database. */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PUBLIC: NewChannelSettings = { inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: undefined, messageRetentionDays: null, isDefault: false, groupSettings: {} };

export interface NamedAccount {
  email: string;
  fullName: string;
  role: Role;
}

/**
 * The owner plus `named` and `people` filler members, and public channels with these names
 * that every active account is subscribed to, plus `unsubscribedChannels` nobody is in.
 * Returns the accounts, owner first, then the named ones, then the filler.
 */
export async function buildOrganization(dataDir: string, options: { named?: NamedAccount[]; people: number; channelNames: string[]; unsubscribedChannels?: string[] }): Promise<User[]> {
  openDatabase(dataDir);
  try {
    return await write(async (tx) => {
      const accounts = [(await findUserByEmail(tx, OWNER.email))!];
      for (const named of options.named ?? []) accounts.push(await addAccount(tx, { ...named, passwordHash: null }));
      for (let i = 1; i <= options.people; i++) accounts.push(await addAccount(tx, { email: `user${i}@bench.example`, fullName: `User ${i}`, role: Role.MEMBER, passwordHash: null }));
      const channels = await createChannels(tx, accounts[0], options.channelNames.map((name) => ({ name, description: "" })), PUBLIC);
      await createChannels(tx, accounts[0], (options.unsubscribedChannels ?? []).map((name) => ({ name, description: "" })), PUBLIC);
      await addSubscriptions(tx, channels, accounts);
      return accounts;
    });
  } finally {
    closeDatabase();
  }
}

export interface MessagePlan {
  count: number;
  /** The channel, topic and sender of message number `index` (0-based). */
  place(index: number): { channelId: number; topic: string; senderId: number } | { dmUserIds: number[]; senderId: number };
  /** The content of one message. */
  content(index: number): string;
}

/**
 * Inserts the messages in transactions of 20,000. The full-text index is filled in one
 * statement at the end (its triggers set aside meanwhile, then put back as they were): row by
 * row it would take ten times as long. Returns the newest message ID.
 */
export function insertMessages(dataDir: string, plan: MessagePlan, onProgress?: (done: number) => void): number {
  const sqlite = new Database(join(dataDir, DATABASE_FILE));
  try {
    sqlite.run("PRAGMA journal_mode = WAL");
    sqlite.run("PRAGMA synchronous = OFF");
    const triggers = sqlite.query<{ name: string; sql: string }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'messages_fts_%'").all();
    for (const trigger of triggers) sqlite.run(`DROP TRIGGER ${trigger.name}`);
    const channelIds = sqlite.query<{ id: number }, []>("SELECT id FROM channels ORDER BY id").all().map((row) => row.id);
    const insertRecipient = sqlite.prepare("INSERT OR IGNORE INTO recipients (type, channel_id) VALUES (1, ?)");
    for (const id of channelIds) insertRecipient.run(id);
    const recipientOf = new Map(sqlite.query<{ id: number; channel_id: number }, []>("SELECT id, channel_id FROM recipients WHERE channel_id IS NOT NULL").all().map((row) => [row.channel_id, row.id]));
    const dmRecipients = new Map<string, number>();
    const dmRecipient = (userIds: number[]) => {
      const key = [...new Set(userIds)].sort((a, b) => a - b).join(",");
      let id = dmRecipients.get(key) ?? (sqlite.query("SELECT id FROM recipients WHERE dm_key = ?").get(key) as { id: number } | null)?.id;
      if (id === undefined) {
        id = Number(sqlite.run("INSERT INTO recipients (type, dm_key) VALUES (2, ?)", [key]).lastInsertRowid);
        for (const userId of key.split(",")) sqlite.run("INSERT INTO recipient_users (recipient_id, user_id) VALUES (?, ?)", [id, Number(userId)]);
      }
      dmRecipients.set(key, id);
      return id;
    };
    const insert = sqlite.prepare(
      "INSERT INTO messages (recipient_id, channel_id, topic, topic_key, sender_id, content, rendered_content, client, date_sent) VALUES (?, ?, ?, ?, ?, ?, ?, 'website', ?)",
    );
    const start = Math.floor(Date.now() / 1000) - plan.count * 10;
    for (let done = 0; done < plan.count; ) {
      const batch = Math.min(20_000, plan.count - done);
      sqlite.transaction(() => {
        for (let i = done; i < done + batch; i++) {
          const place = plan.place(i);
          const text = plan.content(i);
          if ("dmUserIds" in place) insert.run(dmRecipient([...place.dmUserIds, place.senderId]), null, "", "", place.senderId, text, `<p>${text}</p>`, start + i * 10);
          else insert.run(recipientOf.get(place.channelId)!, place.channelId, place.topic, place.topic.toLowerCase(), place.senderId, text, `<p>${text}</p>`, start + i * 10);
        }
      })();
      done += batch;
      onProgress?.(done);
    }
    sqlite.run("INSERT INTO messages_fts (rowid, content, topic, scope) SELECT id, content, topic, 'r' || recipient_id FROM messages");
    for (const trigger of triggers) sqlite.run(trigger.sql);
    const newest = (sqlite.query("SELECT max(id) AS id FROM messages").get() as { id: number }).id;
    sqlite.run("PRAGMA optimize");
    sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    return newest;
  } finally {
    sqlite.close();
  }
}
