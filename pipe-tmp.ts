import { SQL } from "bun";
import { startPostgres } from "./test/helpers/postgres";
const pg = await startPostgres({ fsync: "on", synchronous_commit: "on" });
const sql = new SQL({ url: pg.url, max: 2 });
await sql.unsafe("CREATE TABLE t (id bigserial primary key, v text)");
for (let round = 0; round < 3; round++) {
  let t0 = performance.now();
  await sql.begin(async (tx) => { for (let i = 0; i < 100; i++) await tx.unsafe("INSERT INTO t (v) VALUES ($1) RETURNING id", ["x" + i]); });
  const seq = performance.now() - t0;
  t0 = performance.now();
  await sql.begin(async (tx) => { await Promise.all([...Array(100).keys()].map((i) => tx.unsafe("INSERT INTO t (v) VALUES ($1) RETURNING id", ["x" + i]))); });
  const par = performance.now() - t0;
  t0 = performance.now();
  const r = await sql.begin(async (tx) => tx.unsafe("SELECT nextval('t_id_seq') AS id FROM generate_series(1, $1)", [100]));
  console.log(`sequential ${seq.toFixed(1)} ms, Promise.all ${par.toFixed(1)} ms, nextval x100 ${(performance.now() - t0).toFixed(1)} ms ${r.length}`);
}
await sql.close();
await pg.stop();
