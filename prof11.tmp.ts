import { Database } from "bun:sqlite";
const db = new Database("/tmp/hbench/parley.db", { readonly: true });
const t = db.query("SELECT channel_id, recipient_id FROM messages WHERE id = 500000").get() as any;
function run(label: string, q: string, ...p: any[]) {
  const t0 = performance.now(); let n = 0; for (let i = 0; i < 5; i++) n = db.query(q).all(...p).length; console.log(label.padEnd(40), ((performance.now() - t0) / 5).toFixed(2), "ms", n);
}
for (const w of ["quilo", "tapo", "lannelo", "vemasne"]) {
  for (const m of [`"${w}"*`, `"${w}"`]) {
    run(`A all-history ${m}`, `SELECT messages.id FROM messages_fts CROSS JOIN messages ON messages.id = messages_fts.rowid WHERE messages_fts MATCH ? AND messages_fts.rowid < ? ORDER BY messages_fts.rowid DESC LIMIT 51`, m, 1e16);
    run(`A channel ${m}`, `SELECT messages.id FROM messages_fts CROSS JOIN messages ON messages.id = messages_fts.rowid WHERE messages_fts MATCH ? AND messages_fts.rowid < ? AND messages.channel_id IS ? AND messages.recipient_id = ? ORDER BY messages_fts.rowid DESC LIMIT 51`, m, 1e16, t.channel_id, t.recipient_id);
    run(`count ${m}`, `SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?`, m);
  }
}
