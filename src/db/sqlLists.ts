import { sql } from "drizzle-orm";

/**
 * A list of IDs (or keys) bound as one JSON parameter, as a subquery to put after `IN`: one
 * statement whatever the list's length, where a parameter per item would hit SQLite's limit.
 * SQLite's json_each: a second dialect replaces it here.
 */
export const idList = (ids: readonly (number | string)[]) => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** How many IDs one `inArray` list holds where a query reads a long list in parts. */
const PART = 500;

/** The rows `query` finds for each part of `ids` in turn (one query at a time), together, in the parts' order. */
export async function rowsForParts<T>(ids: readonly number[], query: (part: number[]) => PromiseLike<T[]> | T[]): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += PART) for (const row of await query(ids.slice(i, i + PART))) rows.push(row);
  return rows;
}
