import { openDatabase, database } from "./src/db/client";
import { findUserByEmail, users } from "./src/db/users";
import { channels } from "./src/db/channels";
import { recipientUsers } from "./src/db/messages";
import { reactionsForMessages } from "./src/db/reactions";
import { inArray, sql } from "drizzle-orm";
openDatabase("/tmp/hbench-small");
const db = database();
function time(label: string, f: () => unknown, n = 300) {
  for (let i = 0; i < 100; i++) f();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  console.log(label.padEnd(20), ((performance.now() - t0) / n).toFixed(3), "ms");
}
const ids = Array.from({ length: 50 }, (_, i) => 1000 + i * 7);
time("channels", () => db.select({ id: channels.id, name: channels.name }).from(channels).where(inArray(channels.id, [1, 2])).all());
time("channels raw", () => db.all(sql`SELECT id, name FROM channels WHERE id IN (SELECT value FROM json_each(${"[1,2]"}))`));
time("users", () => db.select().from(users).where(inArray(users.id, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20])).all());
time("users raw", () => db.all(sql`SELECT * FROM users WHERE id IN (SELECT value FROM json_each(${"[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]"}))`));
time("reactions", () => reactionsForMessages(db, ids));
time("recipientUsers", () => db.select().from(recipientUsers).where(inArray(recipientUsers.recipientId, [1])).all());
