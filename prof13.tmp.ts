import { openDatabase, database } from "./src/db/client";
import { read } from "./src/db/transaction";
import { findUserByEmail } from "./src/db/users";
import { narrowFor, fetchWindow, reading, getMessageRange, shapeMessages } from "./src/messages/history";
import { parseNarrow } from "./src/messages/narrow";
import { sql } from "drizzle-orm";
openDatabase("/tmp/hbench");
const db = database();
const user = findUserByEmail(db, "owner@example.com")!;
const t = (db as any).all(sql`SELECT channel_id, topic FROM messages WHERE id = 500000`)[0];
const word = (db as any).all(sql`SELECT content FROM messages WHERE id = 700000`)[0].content.split(" ")[3];
console.log("word", word);
function time(label: string, f: () => unknown, n = 50) {
  for (let i = 0; i < 10; i++) f();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  console.log(label.padEnd(20), ((performance.now() - t0) / n).toFixed(3), "ms");
}
const opts = { applyMarkdown: true, clientGravatar: true, allowEmptyTopicName: false };
const range = { anchor: "newest" as const, numBefore: 50, numAfter: 0, includeAnchor: true };
for (const [label, n] of [
  ["topic", [{ operator: "channel", operand: t.channel_id }, { operator: "topic", operand: t.topic }]],
  ["channel", [{ operator: "channel", operand: t.channel_id }]],
  ["search", [{ operator: "search", operand: word }]],
  ["channel+search", [{ operator: "channel", operand: t.channel_id }, { operator: "search", operand: word }]],
] as const) {
  const narrow = parseNarrow(n);
  time(label + " FULL", () => read((d) => getMessageRange(reading(d, user), narrow, range, opts)));
  const ctx = reading(db, user);
  const q = narrowFor(ctx, narrow);
  time(label + " window", () => fetchWindow(db, q, 1e16, range));
  const w = fetchWindow(db, q, 1e16, range);
  time(label + " shape", () => shapeMessages(ctx, w.rows, q, opts));
  console.log(q.match);
}
