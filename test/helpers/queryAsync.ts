import { queryServer } from "./channels";
import type { TestServer } from "./server";
import { databaseUrlOf } from "./testDatabase";

/**
 * queryServer without holding up this process while it runs. On PostgreSQL queryServer runs
 * psql synchronously (about 0.1 s, more on a busy machine), and a test whose HTTP receivers live
 * in this process (webhook services) would keep them from answering the server meanwhile: an
 * answer could then outlast the server's timeout. Here psql runs as a child awaited. On SQLite
 * it is queryServer (reading the file takes no time to speak of).
 */
export async function queryServerAsync<T>(server: TestServer, statement: string | { sqlite: string; postgres: string }, ...params: Array<string | number>): Promise<T[]> {
  const url = databaseUrlOf(server.dataDir);
  if (url === undefined) return queryServer<T>(server, statement, ...params);
  let n = 0;
  const inlined = (typeof statement === "string" ? statement : statement.postgres).replace(/\?/g, () => {
    const value = params[n++];
    return typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
  });
  const child = Bun.spawn(["psql", url, "-v", "ON_ERROR_STOP=1", "-Atqc", `SELECT coalesce(json_agg(row), '[]') FROM (${inlined}) row`], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, error, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`psql failed on ${inlined}: ${error}`);
  // As queryServer gives them: booleans as SQLite has them, 1 or 0.
  return JSON.parse(out, (_key, value) => (value === true ? 1 : value === false ? 0 : value)) as T[];
}
