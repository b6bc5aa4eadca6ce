import { sql } from "drizzle-orm";
import { dialect } from "./dialect";

/**
 * A list bound as one JSON parameter, as a subquery to put after `IN`: one statement whatever
 * the list's length, where a parameter per item would hit the databases' limits (SQLite's
 * 32,766, PostgreSQL's 65,535). SQLite reads it with json_each, PostgreSQL with
 * jsonb_array_elements_text, cast to the column's type. The parameter is cast to text first:
 * Bun's PostgreSQL client encodes a parameter the statement types as jsonb as JSON again, and a
 * JSON string is a scalar, not an array.
 */
export const idList = (ids: readonly number[]) =>
  dialect() === "postgres"
    ? sql`(SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::text::jsonb)::bigint)`
    : sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** idList for text keys (e-mail addresses, names). */
export const textList = (values: readonly string[]) =>
  dialect() === "postgres"
    ? sql`(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::text::jsonb))`
    : sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;

/** How many IDs one `inArray` list holds where a query reads a long list in parts. */
const PART = 500;

/** The rows `query` finds for each part of `ids` in turn (one query at a time), together, in the parts' order. */
export async function rowsForParts<T>(ids: readonly number[], query: (part: number[]) => PromiseLike<T[]> | T[]): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += PART) for (const row of await query(ids.slice(i, i + PART))) rows.push(row);
  return rows;
}
