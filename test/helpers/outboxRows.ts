import { queryServer } from "./channels";
import { queryServerAsync } from "./queryAsync";
import type { TestServer } from "./server";

/**
 * The outbox items of one outgoing-webhook bot, read from the server's database: `columns` of the
 * items whose payload names `botId`, that also match `where`. The payload is JSON text on SQLite
 * and jsonb on PostgreSQL, so each reads the bot's ID out of the JSON in its own way.
 */
const botOutboxQuery = (columns: string, where: string) => ({
  sqlite: `SELECT ${columns} FROM outbox WHERE (${where}) AND json_extract(payload, '$.bot_id') = ? ORDER BY id`,
  postgres: `SELECT ${columns} FROM outbox WHERE (${where}) AND (payload->>'bot_id')::bigint = ? ORDER BY id`,
});

export function botOutboxRows<T>(server: TestServer, columns: string, botId: number, where = "TRUE"): T[] {
  return queryServer<T>(server, botOutboxQuery(columns, where), botId);
}

/** botOutboxRows for tests whose webhook receivers live in this process (queryAsync.ts says why). */
export function botOutboxRowsAsync<T>(server: TestServer, columns: string, botId: number, where = "TRUE"): Promise<T[]> {
  return queryServerAsync<T>(server, botOutboxQuery(columns, where), botId);
}
