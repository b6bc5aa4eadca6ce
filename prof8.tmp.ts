const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "da", "ve", "zo", "qui", "ber", "lan", "tor", "mas"];
const V = Array.from({ length: 2000 }, (_, i) => { let w = ""; for (let n = i + 17; n > 0; n = Math.floor(n / 16)) w += SYLLABLES[n % 16]; return w; });
import { Database } from "bun:sqlite";
const db = new Database("/tmp/hbench/parley.db", { readonly: true });
for (const r of [0, 10, 100, 300, 1000, 1999]) {
  const w = V[r];
  const n = (db.query("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?").get(`"${w}"*`) as any).n;
  const e = (db.query("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?").get(`"${w}"`) as any).n;
  console.log(r, w, n, e);
}
