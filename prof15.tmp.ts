import { Database } from "bun:sqlite";
const db = new Database("/tmp/hbench/parley.db", { readonly: true });
const ids = JSON.stringify(Array.from({ length: 50 }, (_, i) => 500000 + i * 13));
for (const q of ["SELECT * FROM messages WHERE messages.id IN (SELECT value FROM json_each(?))", "SELECT * FROM messages WHERE id IN (SELECT value FROM json_each(?))", "SELECT m.* FROM json_each(?) j JOIN messages m ON m.id = j.value"]) {
  console.log(db.query("EXPLAIN QUERY PLAN " + q).all(ids).map((r: any) => r.detail));
  const t0 = performance.now(); for (let i = 0; i < 20; i++) db.query(q).all(ids); console.log((performance.now() - t0) / 20);
}
