import { connectionOf } from "./handles";

/**
 * What db/ uses of a connection to PostgreSQL: Bun's client (reserved, one per role, see
 * db/postgresClient.ts) as wrapped by withNumbers(). A leaf module, for the query helpers.
 */
export interface PostgresClient {
  unsafe(text: string, params?: unknown[]): PostgresQuery;
}

export interface PostgresQuery extends PromiseLike<Array<Record<string, unknown>> & { count: number }> {
  values(): Promise<unknown[][]>;
}

/** The client a handle's connection runs on (a drizzle database over Bun's client). */
export const postgresClientOf = (db: object): PostgresClient => (connectionOf(db) as unknown as { $client: PostgresClient }).$client;

/**
 * `?` placeholders (SQLite's) as PostgreSQL's `$1`, `$2` ...: for raw statements written once
 * for both, which hold no `?` but their placeholders.
 */
export function positionalParameters(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/**
 * Bun's client gives PostgreSQL's bigint (every ID, count and time here) as a string, or with
 * `bigint: true` as a BigInt. Numbers are what the rest of Parley works with, and they are exact
 * up to 2^53: the client is opened with `bigint: true`, and this wrapper turns each BigInt in a
 * result into a number. (A string could not be told from a text column's value; a BigInt can.)
 */
export function withNumbers<Client extends PostgresClient>(client: Client): Client {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== "unsafe") {
        const value: unknown = Reflect.get(target, property, receiver);
        // Bun's native methods need the client itself as `this`.
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (text: string, params?: unknown[]) => numbering(target.unsafe(text, params));
    },
  });
}

function numbering(query: PostgresQuery): PostgresQuery {
  return {
    then: (resolve, reject) => query.then((rows) => (numbersInRows(rows), rows)).then(resolve, reject),
    values: () => query.values().then((rows) => (numbersInTuples(rows), rows)),
  };
}

function numbersInRows(rows: Array<Record<string, unknown>>) {
  for (const row of rows) for (const key in row) if (typeof row[key] === "bigint") row[key] = Number(row[key]);
}

function numbersInTuples(rows: unknown[][]) {
  for (const row of rows) for (let i = 0; i < row.length; i++) if (typeof row[i] === "bigint") row[i] = Number(row[i]);
}
