import { openDatabase, database } from "./src/db/client";
import { read } from "./src/db/transaction";
import { findUserByEmail } from "./src/db/users";
import { getMessageRange, narrowFor, fetchWindow, shapeMessages } from "./src/messages/history";
import { parseNarrow } from "./src/messages/narrow";
openDatabase("/tmp/hbench-small");
const db = database();
const user = findUserByEmail(db, "owner@example.com")!;
const channelIds = (db as any).all(require("drizzle-orm").sql`SELECT id FROM channels ORDER BY id`).map((r: any) => r.id);
const topics = (db as any).all(require("drizzle-orm").sql`SELECT DISTINCT channel_id, topic FROM messages LIMIT 50`);
const opts = { applyMarkdown: true, clientGravatar: true, allowEmptyTopicName: false };
function time(label: string, f: () => unknown, n = 50) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  console.log(label, ((performance.now() - t0) / n).toFixed(2), "ms");
}
const t = topics[3];
const narrow = parseNarrow([{ operator: "channel", operand: t.channel_id }, { operator: "topic", operand: t.topic }]);
time("full", () => read((d) => getMessageRange(d, user, narrow, { anchor: "newest", numBefore: 50, numAfter: 0, includeAnchor: true }, opts)));
time("narrowFor", () => read((d) => narrowFor(d, user, narrow)));
const q = narrowFor(db, user, narrow);
time("window", () => read((d) => fetchWindow(d, q.where, 10_000_000_000_000_000, { numBefore: 50, numAfter: 0, includeAnchor: true })));
const w = fetchWindow(db, q.where, 10_000_000_000_000_000, { numBefore: 50, numAfter: 0, includeAnchor: true });
time("shape", () => read((d) => shapeMessages(d, user, w.rows, q, opts)));
const s = parseNarrow([{ operator: "search", operand: "kalo" }]);
time("search", () => read((d) => getMessageRange(d, user, s, { anchor: "newest", numBefore: 50, numAfter: 0, includeAnchor: true }, opts)), 10);
