import { sql } from "drizzle-orm";

/**
 * A list of IDs (or keys) bound as one JSON parameter, as a subquery to put after `IN`: one
 * statement whatever the list's length, where a parameter per item would hit SQLite's limit.
 * SQLite's json_each: a second dialect replaces it here.
 */
export const idList = (ids: readonly (number | string)[]) => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;
