// Every table, for drizzle-kit (drizzle.config.ts) and for the database client.
export * from "./sqlite/tables";
