// Every table, for drizzle-kit and for the database client.
export * from "./channels";
export * from "./groups";
export * from "./messages";
export * from "./messageState";
export * from "./reactions";
export * from "./realm";
export * from "./users";
export * from "./userTopics";
