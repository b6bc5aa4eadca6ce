import { openDatabase, database } from "./src/db/client";
import { users } from "./src/db/users";
import { messages } from "./src/db/messages";
import { prepared } from "./src/db/prepared";
import { and, desc, lt, eq, isNotNull, sql } from "drizzle-orm";
openDatabase("/tmp/hbench-small");
const db = database();
function time(label: string, f: () => unknown, n = 300) {
  for (let i = 0; i < 100; i++) f();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  console.log(label.padEnd(20), ((performance.now() - t0) / n).toFixed(3), "ms");
}
const usersByIds = prepared((d) => d.select().from(users).where(sql`${users.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`).prepare());
time("users prepared", () => usersByIds().all({ ids: "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]" }));
const t = (db as any).all(sql`SELECT channel_id, topic_key FROM messages LIMIT 1 OFFSET 500`)[0];
const where = and(sql`1`, sql`${messages.channelId} IS ${t.channel_id}`, and(isNotNull(messages.channelId), eq(messages.topicKey, t.topic_key)))!;
time("window builder", () => db.select().from(messages).where(and(where, lt(messages.id, 1e16))).orderBy(desc(messages.id)).limit(51).all());
time("window raw", () => db.all(sql`SELECT * FROM messages WHERE ${where} AND id < ${1e16} ORDER BY id DESC LIMIT ${51}`));
time("window raw ids", () => db.all(sql`SELECT id FROM messages WHERE ${where} AND id < ${1e16} ORDER BY id DESC LIMIT ${51}`));
time("sqlite only", () => (db as any).$client.query(`SELECT * FROM messages WHERE 1 AND channel_id IS ? AND topic_key = ? AND id < ? ORDER BY id DESC LIMIT 51`).all(t.channel_id, t.topic_key, 1e16));
