import { Database } from "bun:sqlite";
const db = new Database("/tmp/ftstest.db");
let t0 = performance.now();
db.run("CREATE VIRTUAL TABLE f2 USING fts5(content, topic, scope, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')");
db.run("INSERT INTO f2(rowid, content, topic, scope) SELECT id, content, topic, 'r' || recipient_id FROM messages");
console.log("fill", performance.now() - t0);
const t = db.query("SELECT channel_id, recipient_id FROM messages WHERE id = 500000").get() as any;
function run(label: string, q: string, ...p: any[]) {
  const t0 = performance.now(); let n = 0; for (let i = 0; i < 5; i++) n = db.query(q).all(...p).length; console.log(label.padEnd(40), ((performance.now() - t0) / 5).toFixed(2), "ms", n);
}
for (const w of ["quilo", "tapo", "lannelo", "vemasne"]) {
  for (const m of [`{content topic}:"${w}"*`, `{content topic}:"${w}"`]) {
    run(`all ${m}`, `SELECT messages.id FROM f2 CROSS JOIN messages ON messages.id = f2.rowid WHERE f2 MATCH ? AND f2.rowid < ? ORDER BY f2.rowid DESC LIMIT 51`, m, 1e16);
    run(`scoped ${m}`, `SELECT messages.id FROM f2 CROSS JOIN messages ON messages.id = f2.rowid WHERE f2 MATCH ? AND f2.rowid < ? ORDER BY f2.rowid DESC LIMIT 51`, `scope:"r${t.recipient_id}" AND ${m}`, 1e16);
  }
}
