// Every table, for drizzle-kit and for the database client.
export * from "./channels";
export * from "./drafts";
export * from "./groups";
export * from "./invites";
export * from "./linkifiers";
export * from "./messages";
export * from "./messageState";
export * from "./outbox";
export * from "./pushDevices";
export * from "./reactions";
export * from "./realm";
export * from "./savedSnippets";
export * from "./scheduledMessages";
export * from "./users";
export * from "./userStatus";
export * from "./userTopics";
