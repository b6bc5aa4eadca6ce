import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DATABASE_FILE } from "../src/db/client";
import type { User } from "../src/db/users";
import { insertMessages as insertPlannedMessages, random } from "../test/helpers/largeOrg";
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
 * Inserts the messages (test/helpers/largeOrg.ts, in large transactions with the full-text
 * index filled at the end), then marks all but the newest 2,000 read for everyone.
 */
function insertMessages(dataDir: string, people: User[], count: number) {
  const sqlite = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  const channelIds = sqlite.query<{ id: number }, []>("SELECT id FROM channels ORDER BY id").all().map((row) => row.id);
  sqlite.close();
  const next = random(42);
  const word = wordPicker(next);
  const began = performance.now();
  const newest = insertPlannedMessages(
    dataDir,
    {
      count,
      place() {
        const channel = Math.floor(next() * CHANNELS);
        return { channelId: channelIds[channel], topic: topicName(channel, Math.floor(next() * TOPICS_PER_CHANNEL)), senderId: people[Math.floor(next() * people.length)].id };
      },
      content: () => Array.from({ length: 4 + Math.floor(next() * 20) }, word).join(" "),
    },
    (done) => process.stdout.write(`\r  ${done.toLocaleString("en")} messages (${Math.round(done / ((performance.now() - began) / 1000)).toLocaleString("en")}/s)`),
  );
  const marks = new Database(join(dataDir, DATABASE_FILE));
  marks.run("INSERT OR REPLACE INTO read_marks (user_id, recipient_id, read_up_to) SELECT s.user_id, r.id, ? FROM subscriptions s JOIN recipients r ON r.channel_id = s.channel_id", [newest - 2000]);
  marks.run("PRAGMA wal_checkpoint(TRUNCATE)");
  marks.close();
  console.log(`\n  built in ${((performance.now() - began) / 1000).toFixed(1)} s`);
}

/**
 * `parley init` in `dataDir` and `count` messages in it, unless an earlier run left a database
 * there (a `--data-dir` kept between runs): about 30 s for a million.
 */
export async function buildHistory(dataDir: string, count: number) {
  if (existsSync(join(dataDir, DATABASE_FILE))) return;
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
  console.log(`Building ${count.toLocaleString("en")} messages in ${CHANNELS} channels, ${CHANNELS * TOPICS_PER_CHANNEL} topics, ${SENDERS} senders:`);
  insertMessages(dataDir, await buildOrganization(dataDir, SENDERS, Array.from({ length: CHANNELS }, (_, i) => `channel-${i}`)), count);
}
