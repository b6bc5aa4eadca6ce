import { openDatabase, database } from "./src/db/client";
import { bitsOf, marksOf, periodsOf } from "./src/db/messageState";
import { activeChannelIdsOfUser } from "./src/db/channels";
import { sql } from "drizzle-orm";
openDatabase("/tmp/hbench-small");
const db = database();
const raw = (db as any).$client;
const ids = Array.from({ length: 50 }, (_, i) => 1000 + i * 7);
function time(label: string, f: () => unknown, n = 500) {
  for (let i = 0; i < 50; i++) f();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  console.log(label.padEnd(20), ((performance.now() - t0) / n).toFixed(3), "ms");
}
time("bitsOf", () => bitsOf(db, 1, ids));
time("marksOf", () => marksOf(db, 1, [1, 2, 3]));
time("periodsOf", () => periodsOf(db, 1, [1, 2, 3]));
time("activeChannels", () => activeChannelIdsOfUser(db, 1));
const st = raw.query(`SELECT message_id, flags FROM message_flags WHERE user_id = ? AND message_id IN (${ids.map(() => "?").join(",")})`);
time("raw bits", () => st.all(1, ...ids));
time("raw bits uncached", () => raw.prepare(`SELECT message_id, flags FROM message_flags WHERE user_id = ? AND message_id IN (${ids.map(() => "?").join(",")})`).all(1, ...ids));
time("raw json_each", () => raw.query(`SELECT message_id, flags FROM message_flags WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))`).all(1, JSON.stringify(ids)));
time("drizzle all sql", () => db.all(sql`SELECT message_id, flags FROM message_flags WHERE user_id = ${1} AND message_id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`));
