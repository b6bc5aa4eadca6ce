import { queryServer } from "./channels";
import type { TestServer } from "./server";
import { databaseUrlOf, inlineParameters, psqlSelectCommand, rowsAsSqliteGives } from "./testDatabase";

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
  const inlined = inlineParameters(typeof statement === "string" ? statement : statement.postgres, params);
  const child = Bun.spawn(psqlSelectCommand(url, inlined), { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, error, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`psql failed on ${inlined}: ${error}`);
  return rowsAsSqliteGives<T>(out);
}
