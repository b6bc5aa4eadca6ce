import { Database } from "bun:sqlite";
const db = new Database("/tmp/hbench/parley.db", { readonly: true });
const t = db.query("SELECT channel_id, recipient_id, topic_key FROM messages WHERE id = 500000").get() as any;
function plan(label: string, q: string, ...p: any[]) {
  console.log(label, (db.query("EXPLAIN QUERY PLAN " + q).all(...p) as any[]).map((r) => r.detail).join(" | "));
  const t0 = performance.now(); for (let i = 0; i < 20; i++) db.query(q).all(...p); console.log("   ", ((performance.now() - t0) / 20).toFixed(2), "ms");
}
plan("channel only", "SELECT id FROM messages WHERE channel_id IS ? AND id < ? ORDER BY id DESC LIMIT 51", t.channel_id, 1e16);
plan("channel+recipient", "SELECT id FROM messages WHERE channel_id IS ? AND recipient_id = ? AND id < ? ORDER BY id DESC LIMIT 51", t.channel_id, t.recipient_id, 1e16);
plan("channel+recipient+topic", "SELECT id FROM messages WHERE channel_id IS ? AND recipient_id = ? AND (channel_id IS NOT NULL AND topic_key = ?) AND id < ? ORDER BY id DESC LIMIT 51", t.channel_id, t.recipient_id, t.topic_key, 1e16);
plan("channel+recipient old anchor", "SELECT id FROM messages WHERE channel_id IS ? AND recipient_id = ? AND id < ? ORDER BY id DESC LIMIT 51", t.channel_id, t.recipient_id, 1000);
