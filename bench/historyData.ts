import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DATABASE_FILE } from "../src/db/client";
import type { User } from "../src/db/users";
import { OWNER } from "../test/helpers/seed";
import { runParley } from "../test/helpers/server";
import { buildOrganization } from "./lib";

/**
 * The large database the history and memory benchmarks read: the organization (people,
 * channels, subscriptions) made through Parley's own actions, then the messages inserted
 * straight into the database in large transactions, which is what makes a million of them
 * quick to build.
 */

export const CHANNELS = 50;
export const TOPICS_PER_CHANNEL = 10;
const SENDERS = 20;

/** A fixed pseudo-random sequence, so every run builds the same database. */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "da", "ve", "zo", "qui", "ber", "lan", "tor", "mas"];
// Letters no syllable starts with: ending every word with one keeps any word from being the
// start of another, as in a real vocabulary, where a prefix search meets few other words.
const ENDINGS = ["x", "f", "g", "c", "j", "w", "y", "h"];
/** 2,000 made-up words; drawn with a Zipf-like skew, as words in real chat are. */
export const VOCABULARY = Array.from({ length: 2000 }, (_, i) => {
  let word = "";
  for (let n = Math.floor(i / ENDINGS.length) + 17; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word + ENDINGS[i % ENDINGS.length];
});

function wordPicker(next: () => number) {
  // Zipf with exponent 1: P(rank r) ∝ 1/r, sampled by inverting the cumulative sum.
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= VOCABULARY.length; rank++) cumulative.push((total += 1 / rank));
  return () => {
    const target = next() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return VOCABULARY[low];
  };
}

export const topicName = (channel: number, topic: number) => `${VOCABULARY[channel * TOPICS_PER_CHANNEL + topic]} plans ${topic}`;

/**
 * Inserts the messages in transactions of 20,000, then marks all but the newest 2,000 read for
 * everyone. The full-text index is filled in one statement at the end (its triggers set aside
 * meanwhile, then put back as they were): row by row it would take ten times as long.
 */
function insertMessages(dataDir: string, people: User[], count: number) {
  const sqlite = new Database(join(dataDir, DATABASE_FILE));
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = OFF");
  const triggers = sqlite.query<{ name: string; sql: string }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'messages_fts_%'").all();
  for (const trigger of triggers) sqlite.run(`DROP TRIGGER ${trigger.name}`);
  const channelIds = sqlite.query<{ id: number }, []>("SELECT id FROM channels ORDER BY id").all().map((row) => row.id);
  const insertRecipient = sqlite.prepare("INSERT OR IGNORE INTO recipients (type, channel_id) VALUES (1, ?)");
  for (const id of channelIds) insertRecipient.run(id);
  const recipientOf = new Map(sqlite.query<{ id: number; channel_id: number }, []>("SELECT id, channel_id FROM recipients WHERE channel_id IS NOT NULL").all().map((row) => [row.channel_id, row.id]));
  const insert = sqlite.prepare(
    "INSERT INTO messages (recipient_id, channel_id, topic, topic_key, sender_id, content, rendered_content, client, date_sent) VALUES (?, ?, ?, ?, ?, ?, ?, 'website', ?)",
  );
  const next = random(42);
  const word = wordPicker(next);
  const start = Math.floor(Date.now() / 1000) - count * 10;
  const began = performance.now();
  for (let done = 0; done < count; ) {
    const batch = Math.min(20_000, count - done);
    sqlite.transaction(() => {
      for (let i = 0; i < batch; i++) {
        const channel = Math.floor(next() * CHANNELS);
        const topic = topicName(channel, Math.floor(next() * TOPICS_PER_CHANNEL));
        const words = Array.from({ length: 4 + Math.floor(next() * 20) }, word).join(" ");
        const sender = people[Math.floor(next() * people.length)];
        insert.run(recipientOf.get(channelIds[channel])!, channelIds[channel], topic, topic.toLowerCase(), sender.id, words, `<p>${words}</p>`, start + (done + i) * 10);
      }
    })();
    done += batch;
    process.stdout.write(`\r  ${done.toLocaleString("en")} messages (${Math.round(done / ((performance.now() - began) / 1000)).toLocaleString("en")}/s)`);
  }
  sqlite.run("INSERT INTO messages_fts (rowid, content, topic, scope) SELECT id, content, topic, 'r' || recipient_id FROM messages");
  for (const trigger of triggers) sqlite.run(trigger.sql);
  const newest = (sqlite.query("SELECT max(id) AS id FROM messages").get() as { id: number }).id;
  sqlite.run("INSERT OR REPLACE INTO read_marks (user_id, recipient_id, read_up_to) SELECT s.user_id, r.id, ? FROM subscriptions s JOIN recipients r ON r.channel_id = s.channel_id", [newest - 2000]);
  sqlite.run("PRAGMA optimize");
  sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite.close();
  console.log(`\n  built in ${((performance.now() - began) / 1000).toFixed(1)} s`);
}

/**
 * `parley init` in `dataDir` and `count` messages in it, unless an earlier run left a database
 * there (a `--data-dir` kept between runs): about 30 s for a million.
 */
export function buildHistory(dataDir: string, count: number) {
  if (existsSync(join(dataDir, DATABASE_FILE))) return;
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
  console.log(`Building ${count.toLocaleString("en")} messages in ${CHANNELS} channels, ${CHANNELS * TOPICS_PER_CHANNEL} topics, ${SENDERS} senders:`);
  insertMessages(dataDir, buildOrganization(dataDir, SENDERS, Array.from({ length: CHANNELS }, (_, i) => `channel-${i}`)), count);
}
