import { Elysia } from "elysia";
import { conventions } from "./http/conventions";
import { authRoutes } from "./routes/auth";
import { botRoutes } from "./routes/bots";
import { channelRoutes } from "./routes/channels";
import { eventRoutes } from "./routes/events";
import { messageEditRoutes } from "./routes/messageEdits";
import { messageHistoryRoutes } from "./routes/messageHistory";
import { messageRoutes } from "./routes/messages";
import { reactionRoutes } from "./routes/reactions";
import { serverRoutes } from "./routes/server";
import { settingsRoutes } from "./routes/settings";
import { subscriptionRoutes } from "./routes/subscriptions";
import { userRoutes } from "./routes/users";
import { webRoutes } from "./web/routes";

/** The one place routes, plugins and jobs are wired together; tests and main both use it. */
export function createApp() {
  const api = new Elysia({ prefix: "/api/v1" }).use(serverRoutes).use(authRoutes).use(userRoutes).use(botRoutes).use(eventRoutes).use(settingsRoutes).use(channelRoutes).use(subscriptionRoutes).use(messageRoutes).use(messageHistoryRoutes).use(messageEditRoutes).use(reactionRoutes);
  return new Elysia().use(conventions).use(api).use(webRoutes);
}

export type App = ReturnType<typeof createApp>;
