// Every table, for drizzle-kit and for the database client.
export * from "./channels";
export * from "./groups";
export * from "./realm";
export * from "./users";
